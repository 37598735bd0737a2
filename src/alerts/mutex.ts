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
