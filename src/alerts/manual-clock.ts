import type { Clock, TimerHandle } from "./types.js";

interface Timer {
  at: number;
  /** Set order: timers due at the same time fire in the order they were set. */
  id: number;
  fn: () => void;
}

const earlier = (a: Timer, b: Timer) => a.at < b.at || (a.at === b.at && a.id < b.id);

/**
 * Time that moves only when told to; timers fire in order as it passes them. Drives the replay and the
 * benchmark (compressed time) and the tests (no real sleeps).
 *
 * Timers sit in a binary heap: the alert-polling benchmark advances 1,000 arrays' timers per cycle, and a scan of
 * every timer per firing (a million steps a cycle) was counted as the bot's CPU (~3 % of what it measured).
 * A cleared timer stays in the heap, skipped when it comes up.
 */
export class ManualClock implements Clock {
  private readonly heap: Timer[] = [];
  private readonly live = new Set<number>();
  private seq = 0;

  constructor(private t: number) {}

  now = (): number => this.t;

  setTimer(fn: () => void, ms: number): TimerHandle {
    const id = ++this.seq;
    this.push({ at: this.t + Math.max(0, ms), id, fn });
    this.live.add(id);
    return { id };
  }

  clearTimer(h: TimerHandle): void {
    this.live.delete(h.id);
  }

  get pending(): number {
    return this.live.size;
  }

  /** When the earliest timer is due, if any. */
  nextDue(): number | undefined {
    return this.peek()?.at;
  }

  /**
   * Moves time forward, firing due timers earliest first; `settle` runs after each (e.g. the engine's idle(),
   * so the work a timer started is finished before time moves on).
   */
  async advance(ms: number, settle: () => Promise<void> = async () => {}): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      const next = this.peek();
      if (!next || next.at > end) break;
      this.pop();
      this.live.delete(next.id);
      this.t = Math.max(this.t, next.at);
      next.fn();
      await settle();
    }
    this.t = end;
    await settle();
  }

  /** Jumps to an absolute time (never backwards), firing timers on the way. */
  advanceTo(at: number, settle?: () => Promise<void>): Promise<void> {
    return this.advance(Math.max(0, at - this.t), settle);
  }

  /** The earliest timer not cleared (cleared ones on top are dropped on the way). */
  private peek(): Timer | undefined {
    while (this.heap.length > 0) {
      const top = this.heap[0] as Timer;
      if (this.live.has(top.id)) return top;
      this.pop();
    }
    return undefined;
  }

  private push(t: Timer): void {
    const h = this.heap;
    h.push(t);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!earlier(h[i] as Timer, h[parent] as Timer)) break;
      [h[i], h[parent]] = [h[parent] as Timer, h[i] as Timer];
      i = parent;
    }
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop();
    if (last === undefined || h.length === 0) return;
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && earlier(h[l] as Timer, h[m] as Timer)) m = l;
      if (r < h.length && earlier(h[r] as Timer, h[m] as Timer)) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m] as Timer, h[i] as Timer];
      i = m;
    }
  }
}
