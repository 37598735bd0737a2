/**
 * The command layer's pending requests (confirmations, approvals, offers) on the durable store, so a restart
 * between "requested" and "approved" loses nothing. Implements `PendingStore` from src/core/pending-store.ts.
 */
import {
  type ApprovalOutcome,
  applyApproval,
  OPEN_STATUSES,
  type PendingRecord,
  type PendingStore,
} from "../core/pending-store.js";
import { InternalError } from "../errors.js";
import type { Store } from "./types.js";

const NS = "pending";
/** Finished records stay readable this long after their expiry (late clicks get a clear answer), then go. */
const KEEP_AFTER_EXPIRY_MS = 7 * 24 * 3600_000;

export function createStorePendingStore(store: Store): PendingStore {
  const keepUntil = (r: PendingRecord): number => r.expiresAt + KEEP_AFTER_EXPIRY_MS;

  return {
    async create(record) {
      await store.update<PendingRecord>(
        NS,
        record.id,
        (cur) => {
          if (cur) throw new InternalError("PENDING_EXISTS", `pending record ${record.id} already exists`);
          return record;
        },
        { expiresAt: keepUntil(record) },
      );
    },
    async get(id) {
      return store.get<PendingRecord>(NS, id);
    },
    async claim(id, expectedStatus) {
      let won = false;
      const after = await store.update<PendingRecord>(NS, id, (cur) => {
        if (!cur || cur.status !== expectedStatus) return cur;
        won = true;
        return { ...cur, status: "claimed" };
      });
      return won ? after : undefined;
    },
    async approve(id, approval) {
      let outcome: ApprovalOutcome = { kind: "closed", record: undefined };
      await store.update<PendingRecord>(NS, id, (cur) => {
        const step = applyApproval(cur, approval);
        outcome = step.outcome;
        return step.next;
      });
      return outcome;
    },
    async update(id, patch) {
      const opts = patch.expiresAt === undefined ? {} : { expiresAt: patch.expiresAt + KEEP_AFTER_EXPIRY_MS };
      return store.update<PendingRecord>(NS, id, (c) => (c ? { ...c, ...patch } : undefined), opts);
    },
    async listOpen() {
      const all = await store.list<PendingRecord>(NS);
      return all.map((e) => e.value).filter((r) => OPEN_STATUSES.includes(r.status));
    },
    async interruptClaimed(now, keep) {
      const out: PendingRecord[] = [];
      for (const { value } of await store.list<PendingRecord>(NS)) {
        if (value.status !== "claimed") continue;
        // Still being carried out by a live executor: not ours to end.
        if (keep && (await keep(value))) continue;
        let won = false;
        const after = await store.update<PendingRecord>(NS, value.id, (c) => {
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
      for (const { value } of await store.list<PendingRecord>(NS)) {
        if (value.status !== "pending" || value.expiresAt > now) continue;
        let won = false;
        const after = await store.update<PendingRecord>(NS, value.id, (c) => {
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
