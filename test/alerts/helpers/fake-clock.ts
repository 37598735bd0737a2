import type { Clock, TimerHandle } from "../../../src/alerts/types.js";

/** Time that moves only when a test says so; timers fire in order as it passes them. */
export class FakeClock implements Clock {
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

  /** How many timers are waiting. */
  get pending(): number {
    return this.timers.size;
  }

  /**
   * Moves time forward, firing due timers earliest first; `settle` runs after each one (the engine's idle(),
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

  /** Jumps to an absolute time (forward only), firing timers on the way. */
  async advanceTo(at: number, settle?: () => Promise<void>): Promise<void> {
    await this.advance(Math.max(0, at - this.t), settle);
  }
}
