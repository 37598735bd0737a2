/**
 * The pending store in memory: tests and the console without a data file. Records round-trip through JSON, so it
 * accepts exactly what the durable store (pending-store-durable.ts) would.
 */
import {
  applyApproval,
  KEEP_FINISHED_MS,
  OPEN_STATUSES,
  type PendingRecord,
  type PendingStore,
} from "./pending-store.js";

/** Round-trips through JSON so the in-memory store accepts exactly what a durable store would. */
function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

export function createMemoryPendingStore(): PendingStore {
  const records = new Map<string, PendingRecord>();
  return {
    async create(record) {
      if (records.has(record.id)) throw new Error(`pending record ${record.id} already exists`);
      records.set(record.id, copy(record));
    },
    async get(id) {
      const r = records.get(id);
      return r ? copy(r) : undefined;
    },
    async claim(id, expectedStatus) {
      const r = records.get(id);
      if (!r || r.status !== expectedStatus) return undefined;
      r.status = "claimed";
      return copy(r);
    },
    async approve(id, approval) {
      const { next, outcome } = applyApproval(records.get(id), copy(approval));
      if (next) records.set(id, next);
      return copy(outcome);
    },
    async update(id, patch) {
      const r = records.get(id);
      if (!r) return undefined;
      const next = copy({ ...r, ...patch });
      records.set(id, next);
      return copy(next);
    },
    async listOpen() {
      return [...records.values()].filter((r) => OPEN_STATUSES.includes(r.status)).map(copy);
    },
    async interruptClaimed(now, keep) {
      const out: PendingRecord[] = [];
      for (const r of [...records.values()]) {
        if (r.status !== "claimed") continue;
        if (keep && (await keep(copy(r)))) continue;
        if (r.status !== "claimed") continue;
        r.status = "interrupted";
        r.outcome = "INTERRUPTED";
        r.updatedAt = now;
        out.push(copy(r));
      }
      return out;
    },
    async expireBefore(now) {
      const out: PendingRecord[] = [];
      for (const r of records.values()) {
        // The sweep also forgets finished records, as the durable store's expiry does, so memory stays bounded.
        if (!OPEN_STATUSES.includes(r.status) && r.expiresAt + KEEP_FINISHED_MS <= now) {
          records.delete(r.id);
          continue;
        }
        if (r.status === "pending" && r.expiresAt <= now) {
          r.status = "expired";
          r.updatedAt = now;
          out.push(copy(r));
        }
      }
      return out;
    },
  };
}
