/**
 * While an array is marked down, asks it on a timer whether it is back, so it returns to service without a
 * user's call paying for the attempt. The request is the cheapest there is (the API versions, no session);
 * success marks the array up through the health tracker, failure lengthens its interval and schedules the next.
 */
export class BackgroundProbe {
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(
    private readonly enabled: boolean,
    /** Sends the probe through the normal gate, so health sees its outcome. */
    private readonly send: () => Promise<unknown>,
    /** The down state, or undefined when the array is up. */
    private readonly down: () => { retryAt: number } | undefined,
    private readonly now: () => number,
  ) {}

  /** Probes in `inMs` (at least 50 ms); a probe already scheduled is replaced. */
  schedule(inMs: number): void {
    if (!this.enabled || this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#fire(), Math.max(50, inMs));
    this.#timer.unref();
  }

  #fire(): void {
    this.#timer = undefined;
    if (this.#closed || this.down() === undefined) return;
    this.send().catch(() => {
      // A probe that could not go out (another call is probing) tries again when the interval is over; a failed
      // one has already been rescheduled by the health tracker's "still down".
      const down = this.down();
      if (down && this.#timer === undefined) this.schedule(down.retryAt - this.now());
    });
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
  }
}
