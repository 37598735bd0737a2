import type { Clock, TimerHandle } from "./types.js";

/**
 * Time that moves only when told to; timers fire in order as it passes them. Drives the replay and the
 * benchmark (compressed time) and the tests (no real sleeps).
 */
export class ManualClock implements Clock {
  private readonly timers = new Map<number, { at: number; fn: () => void }>();
  private seq = 0;

  constructor(private t: number) {}

  now = (): number => this.t;

  setTimer(fn: () => void, ms: number): TimerHandle {
    const id = ++this.seq;
    this.timers.set(id, { at: this.t + Math.max(0, ms), fn });
    return { id };
  }

  clearTimer(h: TimerHandle): void {
    this.timers.delete(h.id);
  }

  get pending(): number {
    return this.timers.size;
  }

  /** When the earliest timer is due, if any. */
  nextDue(): number | undefined {
    let min: number | undefined;
    for (const t of this.timers.values()) if (min === undefined || t.at < min) min = t.at;
    return min;
  }

  /**
   * Moves time forward, firing due timers earliest first; `settle` runs after each (e.g. the engine's idle(),
   * so the work a timer started is finished before time moves on).
   */
  async advance(ms: number, settle: () => Promise<void> = async () => {}): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const e of this.timers) if (e[1].at <= end && (!next || e[1].at < next[1].at)) next = e;
      if (!next) break;
      this.timers.delete(next[0]);
      this.t = Math.max(this.t, next[1].at);
      next[1].fn();
      await settle();
    }
    this.t = end;
    await settle();
  }

  /** Jumps to an absolute time (never backwards), firing timers on the way. */
  advanceTo(at: number, settle?: () => Promise<void>): Promise<void> {
    return this.advance(Math.max(0, at - this.t), settle);
  }
}
