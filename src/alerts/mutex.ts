/** The alert engine's two kinds of exclusion: one step at a time on its state, and a cap on concurrent polls. */
import { ArrayLimiter } from "../flashblade/limiter.js";

/**
 * Serialises the engine's read-modify-write steps (a poll's plan, a notifier commit, a click) so two of them
 * never interleave between reading a card and writing it back. Steps hold it only around store work, never
 * while waiting on the network.
 */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn, fn);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/**
 * At most `max` alert polls at once, the rest wait in order. The array limiter is the project's one concurrency
 * primitive: its release hands the slot to the next waiter, so a newcomer can never slip in between.
 */
export function pollGate(max: number): ArrayLimiter {
  return new ArrayLimiter("alert polls", {
    maxConcurrent: max,
    minSpacingMs: 0,
    maxQueue: Number.POSITIVE_INFINITY,
  });
}
