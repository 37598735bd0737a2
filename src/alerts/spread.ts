/**
 * When each array's alert polls start. N arrays polled every T get one slot of T/N each, in the order of their
 * names, and every poll starts in its array's slot of each interval: with a thousand arrays, polls start about
 * T/1000 apart for as long as the bot runs, never in a herd. Random start times bunch (a 30 s interval cut in
 * 100 slices gets up to twice its share of a thousand arrays in some slice), and moving each next poll by a
 * random fraction of the interval lets the phases wander into bunches over the hours; slots do neither.
 *
 * Each array's place within its slot is drawn once at start; `jitter` moves each poll by up to that fraction of
 * the slot (one array: of the whole interval), so polls are not in lock-step with anything else on the minute,
 * yet never leave their neighbourhood.
 */

/** Never two polls of one array closer than this (a poll that ran long, or one started at once on a lease). */
const MIN_GAP_MS = 1_000;

export class PollSpread {
  readonly #phase = new Map<string, number>();
  readonly #slot: number;
  #origin = 0;

  constructor(
    names: readonly string[],
    private readonly intervalMs: number,
    private readonly jitter: number,
    private readonly random: () => number,
  ) {
    const sorted = [...names].sort();
    this.#slot = intervalMs / Math.max(1, sorted.length);
    sorted.forEach((name, rank) => {
      this.#phase.set(name, (rank + random()) * this.#slot);
    });
  }

  /** Fixes time zero (the engine's start); returns the delay of `name`'s first poll. */
  start(now: number, name: string): number {
    this.#origin = now;
    return Math.floor(this.#phaseOf(name));
  }

  /** The delay from `now` (a poll of `name` just ended) to its next poll: its slot in a later interval. */
  next(now: number, name: string): number {
    const phase = this.#origin + this.#phaseOf(name);
    const reach = this.jitter * this.#slot;
    // The slot after the one just polled: a poll moved early by the jitter still belongs to its own slot.
    const k = Math.floor((now - phase + reach) / this.intervalMs) + 1;
    const move = reach * (2 * this.random() - 1);
    let at = phase + k * this.intervalMs + move;
    if (at - now < MIN_GAP_MS) at += this.intervalMs;
    return Math.round(at - now);
  }

  #phaseOf(name: string): number {
    let phase = this.#phase.get(name);
    if (phase === undefined) {
      // Not configured at start (cannot happen from config; a replay may name others): anywhere in the interval.
      phase = this.random() * this.intervalMs;
      this.#phase.set(name, phase);
    }
    return phase;
  }
}
