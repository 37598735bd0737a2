/**
 * Remembers recently seen delivery keys (a command's trigger_id, an event's event_id) so a delivery Slack
 * retries, or sends to us twice over a reconnecting socket, runs once. With a shared store (Redis, several
 * replicas) the key is also claimed there atomically, so a retry that lands on another replica is dropped too.
 * If the shared store cannot be reached, this replica's own memory still answers: a duplicate across replicas
 * may then run, but nothing is refused that should run.
 */
import type { Logger } from "../logger.js";
import type { Store } from "../store/types.js";

export const DEDUPE_NS = "slack.dedupe";

export class DeliveryDedupe {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly ttlMs = 10 * 60_000,
    private readonly now: () => number = Date.now,
    private readonly max = 10_000,
    private readonly shared?: { store: Store; logger: Logger },
  ) {}

  /** Keys remembered now (for tests of the bound). */
  get size(): number {
    return this.seen.size;
  }

  /** True the first time `key` is seen within the TTL, by this replica and (with a shared store) by any. */
  async firstTime(key: string): Promise<boolean> {
    const t = this.now();
    const at = this.seen.get(key);
    if (at !== undefined && t - at < this.ttlMs) return false;
    // Re-inserting moves the key to the end, keeping the map ordered by time for prune().
    this.seen.delete(key);
    this.seen.set(key, t);
    if (this.seen.size > this.max) this.prune(t);
    if (!this.shared) return true;
    try {
      let first = false;
      await this.shared.store.update<{ at: number }>(
        DEDUPE_NS,
        key,
        (cur) => {
          first = cur === undefined;
          return cur ?? { at: t };
        },
        { expiresAt: t + this.ttlMs },
      );
      return first;
    } catch (err) {
      this.shared.logger.warn(
        { err, key },
        "shared de-duplication unavailable; this replica's memory decides",
      );
      return true;
    }
  }

  private prune(t: number): void {
    for (const [k, at] of this.seen) {
      if (t - at >= this.ttlMs || this.seen.size > this.max) this.seen.delete(k);
      else break;
    }
  }
}
