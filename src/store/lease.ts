/**
 * Leases with fencing tokens, built on the store's compare-and-set (`Store.update`), so the same code serves the
 * one-process lease on a SQLite file and per-array polling leases shared by replicas on Redis.
 *
 * A lease is held by one owner until `expiresAt`; the holder renews it before then. Another owner can take it only
 * after it expired. `fence` grows by one every time ownership changes hands (never on a renewal), so work done under
 * an old lease can be refused by comparing fences: a paused old holder that wakes up carries a smaller fence.
 *
 * The record never expires in the store itself: the fence must survive gaps between holders to stay monotonic.
 */
import type { Store } from "./types.js";

export const LEASE_NS = "leases";

export interface Lease {
  name: string;
  owner: string;
  /** Grows by one at every change of holder; compare to refuse work from a superseded holder. */
  fence: number;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

interface LeaseRecord {
  owner: string;
  fence: number;
  expiresAt: number;
}

/**
 * Takes the lease `name` for `owner` when it is free, expired, or already held by `owner` (then it is renewed).
 * Returns the lease held, or undefined when another owner holds a live one.
 */
export async function acquireLease(
  store: Store,
  name: string,
  owner: string,
  ttlMs: number,
  now: number,
): Promise<Lease | undefined> {
  let won = false;
  const rec = await store.update<LeaseRecord>(LEASE_NS, name, (cur) => {
    won = false;
    if (cur && cur.owner !== owner && cur.expiresAt > now) return cur;
    won = true;
    const fence =
      cur === undefined ? 1 : cur.owner === owner && cur.expiresAt > now ? cur.fence : cur.fence + 1;
    return { owner, fence, expiresAt: now + ttlMs };
  });
  return won && rec ? { name, ...rec } : undefined;
}

/**
 * Extends a lease its holder still has. Returns the renewed lease, or undefined when it was lost (expired and
 * taken by someone else, or released): the caller must stop the work the lease guarded.
 */
export async function renewLease(
  store: Store,
  lease: Lease,
  ttlMs: number,
  now: number,
): Promise<Lease | undefined> {
  let kept = false;
  const rec = await store.update<LeaseRecord>(LEASE_NS, lease.name, (cur) => {
    kept = false;
    if (!cur || cur.owner !== lease.owner || cur.fence !== lease.fence) return cur;
    // Expired but nobody took it: the fence is unchanged, so the holder may carry on.
    kept = true;
    return { ...cur, expiresAt: now + ttlMs };
  });
  return kept && rec ? { name: lease.name, ...rec } : undefined;
}

/** Gives the lease up at once (graceful shutdown), so a successor need not wait for the expiry. */
export async function releaseLease(store: Store, lease: Lease, now: number): Promise<void> {
  await store.update<LeaseRecord>(LEASE_NS, lease.name, (cur) => {
    if (!cur || cur.owner !== lease.owner || cur.fence !== lease.fence) return cur;
    return { ...cur, expiresAt: Math.min(cur.expiresAt, now) };
  });
}

/** The current holder of `name`, or undefined when nobody holds a live lease. */
export async function currentLease(store: Store, name: string, now: number): Promise<Lease | undefined> {
  const cur = await store.get<LeaseRecord>(LEASE_NS, name);
  return cur && cur.expiresAt > now ? { name, ...cur } : undefined;
}

/** True while `lease` is still the live one: the check a fenced write makes just before it acts. */
export async function stillHolds(store: Store, lease: Lease, now: number): Promise<boolean> {
  const cur = await currentLease(store, lease.name, now);
  return cur !== undefined && cur.owner === lease.owner && cur.fence === lease.fence;
}
