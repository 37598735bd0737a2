/**
 * Per-array concurrency, spacing and a bounded queue (Bottleneck). When the queue is full a call fails at
 * once with ARRAY_BUSY instead of waiting behind hundreds of others: in chat a quick "busy" beats a reply
 * that arrives minutes later.
 */
import Bottleneck from "bottleneck";
import { busy } from "./errors.js";

export interface RateConfig {
  maxConcurrent: number;
  minSpacingMs: number;
  maxQueue: number;
}

export class ArrayLimiter {
  readonly #bottleneck: Bottleneck;
  #queued = 0;
  #running = 0;

  constructor(
    private readonly array: string,
    private readonly rate: RateConfig,
  ) {
    this.#bottleneck = new Bottleneck({ maxConcurrent: rate.maxConcurrent, minTime: rate.minSpacingMs });
  }

  async schedule<T>(fn: () => Promise<T>): Promise<T> {
    // Jobs beyond the concurrency limit wait in the queue; only those count against max_queue.
    const waiting = this.#queued + this.#running - this.rate.maxConcurrent;
    if (waiting >= this.rate.maxQueue) throw busy(this.array, waiting);
    this.#queued++;
    return this.#bottleneck.schedule(async () => {
      this.#queued--;
      this.#running++;
      try {
        return await fn();
      } finally {
        this.#running--;
      }
    });
  }

  counts(): { inFlight: number; queued: number } {
    return { inFlight: this.#running, queued: this.#queued };
  }

  async stop(): Promise<void> {
    await this.#bottleneck.stop({ dropWaitingJobs: true });
  }
}
