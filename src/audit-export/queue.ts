/**
 * One export target's queue: lines wait here and go out in order, a batch at a time, while the request that
 * made them has long answered. Exporting never blocks or fails a command: the queue is bounded (past it the
 * oldest lines are dropped, counted and logged), and a target that fails is retried with doubling back-off
 * until it takes the lines again.
 */
import type { Logger } from "../logger.js";

export interface Transport {
  /** Sends the lines in order; rejects when they may not have arrived (they are sent again). */
  send(lines: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** Resolves after `ms`, or at once when `signal` aborts (close). A real timer unless a test brings its own. */
export type Wait = (ms: number, signal: AbortSignal) => Promise<void>;

export const realWait: Wait = (ms, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    t.unref();
    function done() {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });

export interface QueueOptions {
  /** Names the target in logs and the drop metric: "file" or "syslog". */
  target: string;
  bound: number;
  transport: Transport;
  logger: Logger;
  onDropped?: (target: string, n: number) => void;
  wait?: Wait;
  /** Back-off after a failure: first, doubling up to max. */
  backoffMs?: { first: number; max: number };
  /** Lines in one send. */
  batch?: number;
}

export interface ExportQueue {
  push(line: string): void;
  /** Resolves once every line pushed so far was sent or dropped (or the queue closed). */
  flush(): Promise<void>;
  /** Stops sending (lines still waiting are logged as lost) and closes the transport. */
  close(): Promise<void>;
  /** Lines waiting now. */
  readonly waiting: number;
}

export function createExportQueue(o: QueueOptions): ExportQueue {
  // Each line keeps its number, so a batch sent while older lines were dropped removes exactly itself.
  const waiting: { n: number; line: string }[] = [];
  let pushed = 0;
  const wait = o.wait ?? realWait;
  const backoff = o.backoffMs ?? { first: 250, max: 30_000 };
  const stop = new AbortController();
  let pumping: Promise<void> | undefined;
  let droppedSinceLog = 0;
  let failing = false;
  const log = o.logger.child({ component: "audit-export", target: o.target });

  const pump = async () => {
    let delay = backoff.first;
    while (waiting.length > 0 && !stop.signal.aborted) {
      const batch = waiting.slice(0, o.batch ?? 100);
      const last = (batch.at(-1) as { n: number }).n;
      try {
        await o.transport.send(batch.map((b) => b.line));
      } catch (err) {
        if (!failing) log.warn({ err }, "audit export failing; retrying with back-off");
        failing = true;
        await wait(delay, stop.signal);
        delay = Math.min(delay * 2, backoff.max);
        continue;
      }
      let sent = 0;
      while (sent < waiting.length && (waiting[sent] as { n: number }).n <= last) sent++;
      waiting.splice(0, sent);
      if (failing) log.info({ dropped: droppedSinceLog }, "audit export resumed");
      failing = false;
      droppedSinceLog = 0;
      delay = backoff.first;
    }
  };
  const start = () => {
    pumping = pump().finally(() => {
      pumping = undefined;
      if (waiting.length > 0 && !stop.signal.aborted) start();
    });
  };

  return {
    push(line) {
      if (stop.signal.aborted) return;
      waiting.push({ n: ++pushed, line });
      if (waiting.length > o.bound) {
        const n = waiting.length - o.bound;
        waiting.splice(0, n);
        if (droppedSinceLog === 0)
          log.error({ bound: o.bound }, "audit export queue full: dropping the oldest lines");
        droppedSinceLog += n;
        o.onDropped?.(o.target, n);
      }
      if (pumping === undefined) start();
    },
    async flush() {
      while (pumping !== undefined) await pumping;
    },
    async close() {
      stop.abort();
      await pumping;
      if (waiting.length > 0) log.warn({ lost: waiting.length }, "audit export stopped with lines unsent");
      await o.transport.close();
    },
    get waiting() {
      return waiting.length;
    },
  };
}
