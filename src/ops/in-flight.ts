/**
 * Tracks work started by incoming commands and clicks so shutdown can stop taking new work and wait for
 * what is running to finish (an approved change should not be cut off halfway).
 */
export class InFlight {
  private readonly running = new Set<Promise<unknown>>();
  private open = true;

  get accepting(): boolean {
    return this.open;
  }

  get size(): number {
    return this.running.size;
  }

  /** Runs `work` as tracked work; rejects nothing itself, the caller's promise carries the outcome. */
  track<T>(work: () => Promise<T>): Promise<T> {
    const p = work();
    this.running.add(p);
    const forget = () => this.running.delete(p);
    p.then(forget, forget);
    return p;
  }

  stopAccepting(): void {
    this.open = false;
  }

  /** Resolves when everything running has settled, or after `timeoutMs`; returns how many were left. */
  async drain(timeoutMs: number): Promise<number> {
    if (this.running.size === 0) return 0;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([Promise.allSettled([...this.running]).then(() => undefined), timeout]);
    clearTimeout(timer);
    return this.running.size;
  }
}
