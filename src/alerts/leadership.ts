/**
 * Which replica polls which array, when several share one store: a lease per array (src/store/lease.ts),
 * renewed by its holder every third of the lease period and tried by every other replica exactly when the
 * current lease runs out, so a dead holder's arrays move within one lease period of its last renewal. Work done
 * under a lease carries its fence (`guardFor`), so a holder that paused past its lease cannot commit afterwards.
 */
import type { Logger } from "../logger.js";
import {
  acquireLease,
  currentLease,
  type Lease,
  releaseLease,
  renewLease,
  stillHolds,
} from "../store/lease.js";
import type { Store, WriteGuard } from "../store/types.js";
import type { Clock, TimerHandle } from "./types.js";

export type LeaseChange = "acquired" | "lost" | "released";

export interface LeadershipOptions {
  store: Store;
  /** This replica's name in lease records (host name and process id). */
  owner: string;
  ttlMs: number;
  clock: Clock;
  logger: Logger;
  /** The arrays to hold leases for (read at every tick, so a changed pool is picked up). */
  arrays: () => readonly string[];
  /** Called after every change, e.g. to poll an array at once when its lease was just taken. */
  onChange?: (array: string, change: LeaseChange, lease: Lease) => void;
  /** Called after every tick (the notifier looks at its outbox again). */
  onTick?: () => void;
}

export const pollLeaseName = (array: string): string => `alerts.poll/${array}`;

export class Leadership {
  private readonly held = new Map<string, Lease>();
  private timer: TimerHandle | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;

  constructor(private readonly o: LeadershipOptions) {}

  /** The lease for `array` if this replica holds a live one by its own clock. */
  holds(array: string): Lease | undefined {
    const l = this.held.get(array);
    return l && l.expiresAt > this.o.clock.now() ? l : undefined;
  }

  guardFor(lease: Lease): WriteGuard {
    return { lease: lease.name, owner: lease.owner, fence: lease.fence };
  }

  /** Checks with the store, just before an action nothing can undo (a Slack post), that `array` is still ours. */
  async confirm(array: string): Promise<boolean> {
    const l = this.holds(array);
    if (!l) return false;
    if (await stillHolds(this.o.store, l, this.o.clock.now())) return true;
    this.lost(array, l);
    return false;
  }

  /** Forgets a lease the store refused (a fenced write): someone else holds it now. */
  lost(array: string, lease: Lease): void {
    if (this.held.get(array)?.fence !== lease.fence) return;
    this.held.delete(array);
    this.o.logger.warn({ array, fence: lease.fence }, "lost the polling lease of an array");
    this.o.onChange?.(array, "lost", lease);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.kick(0);
  }

  /** Waits for a running tick (tests and stop). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops ticking and releases every lease, so successors need not wait for the expiry. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) this.o.clock.clearTimer(this.timer);
    this.timer = undefined;
    await this.idle();
    const now = this.o.clock.now();
    for (const [array, lease] of this.held) {
      try {
        await releaseLease(this.o.store, lease, now);
        this.o.onChange?.(array, "released", lease);
      } catch (err) {
        this.o.logger.warn({ err, array }, "could not release a polling lease; it lapses on its own");
      }
    }
    this.held.clear();
  }

  private kick(delay: number): void {
    if (this.stopped) return;
    if (this.timer) this.o.clock.clearTimer(this.timer);
    this.timer = this.o.clock.setTimer(() => {
      this.timer = undefined;
      this.running = this.tick().finally(() => {
        this.running = undefined;
      });
    }, delay);
  }

  private async tick(): Promise<void> {
    const { store, owner, ttlMs, clock } = this.o;
    const renewEvery = Math.max(1, Math.floor(ttlMs / 3));
    let next = renewEvery;
    for (const array of this.o.arrays()) {
      if (this.stopped) return;
      const name = pollLeaseName(array);
      const now = clock.now();
      try {
        const mine = this.held.get(array);
        if (mine) {
          const renewed = await renewLease(store, mine, ttlMs, now);
          if (renewed) this.held.set(array, renewed);
          else this.lost(array, mine);
          if (renewed) continue;
        }
        const got = await acquireLease(store, name, owner, ttlMs, now);
        if (got) {
          this.held.set(array, got);
          this.o.logger.info({ array, fence: got.fence }, "took the polling lease of an array");
          this.o.onChange?.(array, "acquired", got);
          continue;
        }
        // Someone else holds it: look again exactly when it runs out.
        const cur = await currentLease(store, name, now);
        if (cur) next = Math.min(next, Math.max(1, cur.expiresAt - now));
      } catch (err) {
        // Store down: keep what we hold until it lapses by our clock; nothing is committed without the store anyway.
        this.o.logger.warn({ err, array }, "polling lease check failed; retrying");
      }
    }
    this.o.onTick?.();
    this.kick(next);
  }
}
