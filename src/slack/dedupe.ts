/**
 * Remembers recently seen delivery keys (a command's trigger_id, an event's event_id) so a delivery Slack
 * retries, or sends to us twice over a reconnecting socket, runs once.
 */
export class DeliveryDedupe {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly ttlMs = 10 * 60_000,
    private readonly now: () => number = Date.now,
    private readonly max = 10_000,
  ) {}

  /** Keys remembered now (for tests of the bound). */
  get size(): number {
    return this.seen.size;
  }

  /** True the first time `key` is seen within the TTL. */
  firstTime(key: string): boolean {
    const t = this.now();
    const at = this.seen.get(key);
    if (at !== undefined && t - at < this.ttlMs) return false;
    // Re-inserting moves the key to the end, keeping the map ordered by time for prune().
    this.seen.delete(key);
    this.seen.set(key, t);
    if (this.seen.size > this.max) this.prune(t);
    return true;
  }

  private prune(t: number): void {
    for (const [k, at] of this.seen) {
      if (t - at >= this.ttlMs || this.seen.size > this.max) this.seen.delete(k);
      else break;
    }
  }
}
