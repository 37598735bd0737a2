/**
 * Per-array concurrency, spacing between call starts, and a bounded queue. When the queue is full a call
 * fails at once with ARRAY_BUSY instead of waiting behind hundreds of others: in chat a quick "busy" beats a
 * reply that arrives minutes later.
 *
 * Why not Bottleneck (which the brief suggested): measured on this machine, Bottleneck 2 adds ~5 ms to every
 * job (its local datastore yields with setTimeout(0) several times per job) and 500 parallel jobs take ~1.4 s
 * to pass through an idle limiter. A loopback list call takes about 1 ms, so that would be a several-fold
 * overhead. This semaphore costs microseconds; see bench/client.ts.
 */
import { busy } from "./errors.js";

export interface RateConfig {
  maxConcurrent: number;
  minSpacingMs: number;
  maxQueue: number;
}

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Calls a person waits on (urgency.ts) may run this many beyond `maxConcurrent`, and queue ahead of the rest: an
 * approval's recheck reads five things at once, and with four calls at a time it took two round trips. The
 * transport keeps as many sockets for them (transport.ts, URGENT_SOCKETS).
 */
export const URGENT_EXTRA = 1;

export class ArrayLimiter {
  #running = 0;
  // FIFO as an array with a moving head: shift() would be O(n) per call on a long queue.
  #queue: (Waiter | undefined)[] = [];
  #head = 0;
  #nextStart = 0;
  #stopped: Error | undefined;
  /** Urgent calls waiting: served before the queue. Few (an approval's handful), so a plain array. */
  #urgent: Waiter[] = [];

  constructor(
    private readonly array: string,
    private readonly rate: RateConfig,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  get #queued(): number {
    return this.#queue.length - this.#head + this.#urgent.length;
  }

  // Not an async function: the common case (a free slot) then costs one promise, not three.
  schedule<T>(fn: () => Promise<T>, urgent = false): Promise<T> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    if (this.#running < this.rate.maxConcurrent + (urgent ? URGENT_EXTRA : 0)) {
      this.#running++;
      return this.#run(fn);
    }
    // Urgent calls too: the bound on what waits holds whoever asks.
    if (this.#queued >= this.rate.maxQueue) return Promise.reject(busy(this.array, this.#queued));
    // The slot is handed over by #release(); #running stays counted for us.
    const queue = urgent ? this.#urgent : this.#queue;
    return new Promise<void>((resolve, reject) => queue.push({ resolve, reject })).then(() => this.#run(fn));
  }

  #run<T>(fn: () => Promise<T>): Promise<T> {
    let work: Promise<T>;
    try {
      work = this.rate.minSpacingMs > 0 ? this.#space().then(fn) : fn();
    } catch (err) {
      work = Promise.reject(err);
    }
    return work.then(this.#passValue as (v: T) => T, this.#passError);
  }

  // Bound once: `finally` would allocate a closure and two extra promises per call, these nothing.
  readonly #passValue = (value: unknown): unknown => {
    this.#release();
    return value;
  };
  readonly #passError = (err: unknown): never => {
    this.#release();
    throw err;
  };

  async #space(): Promise<void> {
    const now = this.now();
    const start = Math.max(now, this.#nextStart);
    this.#nextStart = start + this.rate.minSpacingMs;
    if (start > now) await this.sleep(start - now);
  }

  #release(): void {
    const urgent = this.#urgent.shift();
    if (urgent) {
      urgent.resolve();
      return;
    }
    // A slot above maxConcurrent was an urgent call's: it is not handed to the queue.
    if (this.#running > this.rate.maxConcurrent) {
      this.#running--;
      return;
    }
    if (this.#head < this.#queue.length) {
      const next = this.#queue[this.#head];
      this.#queue[this.#head++] = undefined;
      if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
        this.#queue = this.#queue.slice(this.#head);
        this.#head = 0;
      }
      next?.resolve();
      return;
    }
    this.#running--;
  }

  /** Nothing running or queued, and the next call may start now: a limiter built afresh would behave the same. */
  get idle(): boolean {
    return this.#running === 0 && this.#queued === 0 && this.now() >= this.#nextStart;
  }

  counts(): { inFlight: number; queued: number } {
    return { inFlight: this.#running, queued: this.#queued };
  }

  /** Refuses new calls and fails the queued ones; calls already running finish. */
  stop(reason: Error): void {
    this.#stopped = reason;
    const waiting = [...this.#urgent, ...this.#queue.slice(this.#head)];
    this.#urgent = [];
    this.#queue = [];
    this.#head = 0;
    for (const w of waiting) w?.reject(reason);
  }
}
