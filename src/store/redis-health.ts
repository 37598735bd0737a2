/**
 * Sees a Redis that hangs. A stopped or partitioned server keeps its TCP connection open, so the client's
 * connection events never fire and a store that only follows them keeps saying "up" while every command times
 * out. This sends a PING on a timer and gives it a short deadline: no answer in time marks the store down, and
 * the first answer (a late one to the same PING included) marks it up again. While the store is down it is
 * probed more often, so it is back in rotation soon after Redis answers.
 */

export interface PingTimers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface PingMonitorOptions {
  /** Sends one PING; resolves when it is answered. */
  ping: () => Promise<unknown>;
  /** Whether a PING can be sent now (the connection is open); a closed one is the connection events' business. */
  connected: () => boolean;
  /** Time between PINGs while the store answers. */
  intervalMs: number;
  /** A PING not answered within this marks the store down. */
  timeoutMs: number;
  /** Hears every verdict: true on an answer, false with a reason on a missed deadline. */
  verdict: (ok: boolean, detail: string) => void;
  timers?: PingTimers;
}

/** While down, probe at least this often so recovery shows within a second. */
const DOWN_PROBE_MS = 250;

const realTimers: PingTimers = {
  set: (fn, ms) => {
    const t = setTimeout(fn, ms);
    // The monitor must never keep a finished process alive.
    t.unref();
    return t;
  },
  clear: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface PingMonitor {
  /** Whether the last PING missed its deadline and no answer has come since. */
  readonly hung: boolean;
  /** Marks the store hung now (a command timed out) until a PING is answered. */
  markHung(detail: string): void;
  /** The connection was (re)established: a fresh socket is not hung. */
  reset(): void;
  stop(): void;
}

export function startPingMonitor(o: PingMonitorOptions): PingMonitor {
  const timers = o.timers ?? realTimers;
  let hung = false;
  let stopped = false;
  let inFlight = false;
  let tick: unknown;
  let deadline: unknown;

  const answered = () => {
    if (stopped) return;
    if (hung) {
      hung = false;
      o.verdict(true, "ready");
    }
  };
  const missed = (detail: string) => {
    if (stopped || hung) return;
    hung = true;
    o.verdict(false, detail);
  };

  const probe = () => {
    tick = undefined;
    if (stopped) return;
    // One PING at a time: while one waits for its answer the next would only queue behind it.
    if (!inFlight && o.connected()) {
      inFlight = true;
      deadline = timers.set(() => {
        deadline = undefined;
        missed(`Redis did not answer PING within ${o.timeoutMs} ms`);
      }, o.timeoutMs);
      o.ping().then(
        () => {
          inFlight = false;
          if (deadline !== undefined) timers.clear(deadline);
          deadline = undefined;
          answered();
        },
        (err: unknown) => {
          inFlight = false;
          if (deadline !== undefined) timers.clear(deadline);
          deadline = undefined;
          missed(`PING failed: ${err instanceof Error ? err.message : String(err)}`);
        },
      );
    }
    schedule();
  };
  const schedule = () => {
    if (stopped) return;
    tick = timers.set(probe, hung ? Math.min(o.intervalMs, DOWN_PROBE_MS) : o.intervalMs);
  };
  schedule();

  return {
    get hung() {
      return hung;
    },
    markHung(detail) {
      missed(detail);
      // Probe at once rather than at the next tick, so the down-state is confirmed or lifted quickly.
      if (tick !== undefined) timers.clear(tick);
      probe();
    },
    reset() {
      hung = false;
    },
    stop() {
      stopped = true;
      if (tick !== undefined) timers.clear(tick);
      if (deadline !== undefined) timers.clear(deadline);
    },
  };
}
