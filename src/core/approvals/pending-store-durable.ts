/**
 * The command layer's pending requests (confirmations, approvals, offers) on the durable store, so a restart
 * between "requested" and "approved" loses nothing. Implements `PendingStore` (pending-store.ts); the memory twin for tests is pending-store-memory.ts.
 */

import { InternalError } from "../../errors.js";
import type { Store } from "../../store/types.js";
import { pendingCodec, type StoredPending } from "./pending-codec.js";
import {
  type ApprovalOutcome,
  applyApproval,
  KEEP_FINISHED_MS,
  OPEN_STATUSES,
  type PendingRecord,
  type PendingStore,
} from "./pending-store.js";

const NS = "pending";

export function createDurablePendingStore(store: Store): PendingStore {
  const keepUntil = (r: PendingRecord): number => r.expiresAt + KEEP_FINISHED_MS;
  // Records are written redacted and read back with what this process holds (see pending-codec.ts).
  const codec = pendingCodec();
  type Step = (cur: PendingRecord | undefined, lost: boolean) => PendingRecord | undefined;
  const change = async (id: string, step: Step, opts?: { expiresAt?: number }) => {
    const after = await store.update<StoredPending>(
      NS,
      id,
      (cur) => {
        const next = step(cur && codec.open(cur), codec.lost(cur));
        return next && codec.seal(next);
      },
      opts,
    );
    return after && codec.open(after);
  };
  const all = async () => (await store.list<StoredPending>(NS)).map((e) => codec.open(e.value));
  /** A request whose typed arguments this process does not hold cannot run: it fails, nothing is sent. */
  const notKept = (cur: PendingRecord): PendingRecord => ({
    ...cur,
    status: "failed",
    outcome: "SECRET_NOT_KEPT",
  });

  return {
    async create(record) {
      await change(
        record.id,
        (cur) => {
          if (cur) throw new InternalError("PENDING_EXISTS", `pending record ${record.id} already exists`);
          return record;
        },
        { expiresAt: keepUntil(record) },
      );
    },
    async get(id) {
      const stored = await store.get<StoredPending>(NS, id);
      return stored && codec.open(stored);
    },
    async claim(id, expectedStatus) {
      let won = false;
      const after = await change(id, (cur, lost) => {
        if (!cur || cur.status !== expectedStatus) return cur;
        if (lost) return notKept(cur);
        won = true;
        return { ...cur, status: "claimed" };
      });
      return won ? after : undefined;
    },
    async approve(id, approval) {
      let outcome: ApprovalOutcome = { kind: "closed", record: undefined };
      await change(id, (cur, lost) => {
        const step = applyApproval(cur, approval);
        outcome = step.outcome;
        if (!lost || step.outcome.kind !== "claimed" || !step.next) return step.next;
        const failed = notKept(step.next);
        outcome = { kind: "closed", record: failed };
        return failed;
      });
      return outcome;
    },
    async update(id, patch) {
      const opts = patch.expiresAt === undefined ? {} : { expiresAt: patch.expiresAt + KEEP_FINISHED_MS };
      return change(id, (c) => (c ? { ...c, ...patch } : undefined), opts);
    },
    async listOpen() {
      return (await all()).filter((r) => OPEN_STATUSES.includes(r.status));
    },
    async interruptClaimed(now, keep) {
      const out: PendingRecord[] = [];
      for (const value of await all()) {
        if (value.status !== "claimed") continue;
        // Still being carried out by a live executor: not ours to end.
        if (keep && (await keep(value))) continue;
        let won = false;
        const after = await change(value.id, (c) => {
          if (c?.status !== "claimed") return c;
          won = true;
          return { ...c, status: "interrupted", outcome: "INTERRUPTED", updatedAt: now };
        });
        if (won && after) out.push(after);
      }
      return out;
    },
    async expireBefore(now) {
      const out: PendingRecord[] = [];
      for (const value of await all()) {
        if (value.status !== "pending" || value.expiresAt > now) continue;
        let won = false;
        const after = await change(value.id, (c) => {
          if (c?.status !== "pending" || c.expiresAt > now) return c;
          won = true;
          return { ...c, status: "expired", updatedAt: now };
        });
        if (won && after) out.push(after);
      }
      return out;
    },
  };
}
