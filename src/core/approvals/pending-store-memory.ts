/**
 * The pending store in memory: tests and the console without a data file. Records round-trip through JSON, so it
 * accepts exactly what the durable store (pending-store-durable.ts) would. Finished records are kept so a late
 * click on their card gets a clear answer ("already done by …"); in memory, at most `maxFinished` of them, the
 * most recently finished, for at most KEEP_FINISHED_MS: under sustained traffic a week of them would be
 * unbounded. Open requests are never dropped (they expire within hours, and person limits bound how many are
 * made). Offers (a Recover button after a destroy) stay open for as long as recovery is possible, a day by
 * default, one per destroy: at most `maxOffers` of them are kept, the newest; a click on a forgotten one is told
 * the offer is no longer known, and the command (`fs recover …`) still works.
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

/** Finished records kept in memory by default: hours of a busy team's cards, a few MiB. */
export const MAX_FINISHED_IN_MEMORY = 2000;
/** Offers kept in memory by default, open or not: a busy team's Recover buttons of several days. */
export const MAX_OFFERS_IN_MEMORY = 2000;

export function createMemoryPendingStore(
  opts: { maxFinished?: number; maxOffers?: number } = {},
): PendingStore & {
  readonly size: number;
} {
  const maxFinished = opts.maxFinished ?? MAX_FINISHED_IN_MEMORY;
  const maxOffers = opts.maxOffers ?? MAX_OFFERS_IN_MEMORY;
  /** Ids of offers, the oldest first. */
  const offers = new Set<string>();
  const records = new Map<string, PendingRecord>();
  /** Ids of finished records, the most recently finished last. */
  const finished = new Set<string>();
  /** Called after every change of a record: tracks when it finished and forgets the oldest beyond the bound. */
  const track = (r: PendingRecord | undefined) => {
    if (!r) return;
    finished.delete(r.id);
    if (OPEN_STATUSES.includes(r.status)) return;
    finished.add(r.id);
    for (const id of finished) {
      if (finished.size <= maxFinished) break;
      finished.delete(id);
      offers.delete(id);
      records.delete(id);
    }
  };
  /** Forgets the oldest offers beyond the bound. */
  const boundOffers = () => {
    for (const id of offers) {
      if (offers.size <= maxOffers) break;
      offers.delete(id);
      finished.delete(id);
      records.delete(id);
    }
  };
  return {
    get size() {
      return records.size;
    },
    async create(record) {
      if (records.has(record.id)) throw new Error(`pending record ${record.id} already exists`);
      records.set(record.id, copy(record));
      track(records.get(record.id));
      if (record.kind === "offer") {
        offers.add(record.id);
        boundOffers();
      }
    },
    async get(id) {
      const r = records.get(id);
      return r ? copy(r) : undefined;
    },
    async claim(id, expectedStatus) {
      const r = records.get(id);
      if (!r || r.status !== expectedStatus) return undefined;
      r.status = "claimed";
      track(r);
      return copy(r);
    },
    async approve(id, approval) {
      const { next, outcome } = applyApproval(records.get(id), copy(approval));
      if (next) records.set(id, next);
      track(next);
      return copy(outcome);
    },
    async update(id, patch) {
      const r = records.get(id);
      if (!r) return undefined;
      const next = copy({ ...r, ...patch });
      records.set(id, next);
      track(next);
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
        track(r);
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
          finished.delete(r.id);
          offers.delete(r.id);
          continue;
        }
        if (r.status === "pending" && r.expiresAt <= now) {
          r.status = "expired";
          r.updatedAt = now;
          track(r);
          out.push(copy(r));
        }
      }
      return out;
    },
  };
}
