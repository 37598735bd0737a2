/**
 * One process per data file. At start-up the process takes the lease "data-file" on the store (src/store/lease.ts)
 * and renews it on a timer; a second process on the same file is refused with a message that names the holder.
 * A graceful stop releases it at once, so a successor (a rolling deploy) starts without waiting for the expiry;
 * after a crash the successor waits at most one TTL.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { UserFacingError } from "../errors.js";
import type { Logger } from "../logger.js";
import { acquireLease, currentLease, type Lease, releaseLease, renewLease } from "./lease.js";
import type { Store } from "./types.js";

export const DATA_FILE_LEASE = "data-file";
const TTL_MS = 30_000;
const RENEW_MS = 10_000;

export interface DataFileLease {
  readonly lease: Lease;
  /** Runs `fn` if a renewal finds the lease taken by another process. */
  onLost(fn: () => void): void;
  /** Stops renewing and gives the lease up. */
  release(): Promise<void>;
}

export interface HoldOptions {
  logger: Logger;
  now: () => number;
  /** The data directory, named in the refusal. */
  path: string;
  /** Who this process is, as the refusal of another one shows it; host, pid and a random suffix by default. */
  owner?: string;
  ttlMs?: number;
  renewMs?: number;
}

export async function holdDataFile(store: Store, opts: HoldOptions): Promise<DataFileLease> {
  const ttl = opts.ttlMs ?? TTL_MS;
  const owner = opts.owner ?? `${hostname()} pid ${process.pid} (${randomUUID().slice(0, 8)})`;
  let lease = await acquireLease(store, DATA_FILE_LEASE, owner, ttl, opts.now());
  if (!lease) {
    const holder = await currentLease(store, DATA_FILE_LEASE, opts.now());
    const until = holder ? new Date(holder.expiresAt).toISOString() : "a moment ago";
    throw new UserFacingError(
      "DATA_FILE_IN_USE",
      `Another array-chatops process (${holder?.owner ?? "unknown"}) is using the data file in ${opts.path}; ` +
        `its lease runs until ${until} unless it renews it. Two bots on one data file would both poll and post ` +
        "alerts. Stop the other process, or give this one its own store.data_dir. Not starting.",
    );
  }
  opts.logger.info({ owner, fence: lease.fence }, "holding the data-file lease");
  const lost: (() => void)[] = [];
  let held = true;
  const timer = setInterval(() => {
    if (!lease) return;
    renewLease(store, lease, ttl, opts.now()).then(
      (renewed) => {
        if (renewed) {
          lease = renewed;
          return;
        }
        if (!held) return;
        held = false;
        clearInterval(timer);
        for (const fn of lost) fn();
      },
      (err: unknown) => opts.logger.warn({ err }, "renewing the data-file lease failed; retrying"),
    );
  }, opts.renewMs ?? RENEW_MS);
  timer.unref();
  const first = lease;
  return {
    lease: first,
    onLost: (fn) => void lost.push(fn),
    async release() {
      clearInterval(timer);
      if (!held || !lease) return;
      held = false;
      await releaseLease(store, lease, opts.now());
    },
  };
}
