/**
 * Who is carrying out an approved change right now. The replica that runs a claimed request takes a lease on it
 * in the store, naming itself, and renews it while the array call runs; at start-up another replica leaves a
 * claimed request alone while that lease is live, and ends it as "interrupted" only once the lease has expired
 * (its owner died or stopped renewing). A rolling update therefore never marks live work interrupted.
 *
 * The lease is a document in its own namespace that the store forgets a while after the lease ran out, so the
 * records do not pile up; nothing needs fencing (the claim already made the execution single-use).
 */
import type { Store } from "./types.js";

const NS = "executions";
/** A finished or abandoned lease stays readable this long (start-up recovery needs "expired", not "absent"). */
const KEEP_MS = 7 * 24 * 3600_000;

interface LeaseDoc {
  owner: string;
  expiresAt: number;
}

export type ExecutionState =
  | { kind: "live"; owner: string; expiresAt: number }
  | { kind: "expired"; owner: string; expiresAt: number }
  | { kind: "absent" };

export interface ExecutionTimers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface ExecutionHold {
  readonly owner: string;
  /** Stops renewing and gives the lease up: the execution ended (whatever its outcome). */
  release(): Promise<void>;
}

export interface ExecutionLeases {
  /** This process instance's name in lease records. */
  readonly owner: string;
  readonly ttlMs: number;
  /**
   * True when the store belongs to this process alone (a SQLite data file under its lock, memory): then at
   * start-up every claimed request's owner is gone and the lease need not be consulted.
   */
  readonly exclusive: boolean;
  /**
   * Takes the lease on execution `id` and renews it every third of the lease time until released; `about`
   * describes the execution (command, array, planned requests) for `holding`.
   */
  hold(id: string, about?: Readonly<Record<string, unknown>>): Promise<ExecutionHold>;
  state(id: string): Promise<ExecutionState>;
  /**
   * The executions this process is carrying out now, read from memory: what a stop cut off by its deadline
   * names in its last log lines, even with the store unreachable.
   */
  holding(): { id: string; about: Readonly<Record<string, unknown>> }[];
}

const realTimers: ExecutionTimers = {
  set: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clear: (h) => clearTimeout(h as NodeJS.Timeout),
};

export function createExecutionLeases(
  store: Store,
  o: {
    owner: string;
    ttlMs: number;
    exclusive: boolean;
    now: () => number;
    timers?: ExecutionTimers;
    /** Hears a renewal that failed (store down): the lease may lapse, and another replica may interrupt. */
    onRenewError?: (id: string, err: unknown) => void;
  },
): ExecutionLeases {
  const timers = o.timers ?? realTimers;
  const held = new Map<string, Readonly<Record<string, unknown>>>();
  const write = (id: string) => {
    const expiresAt = o.now() + o.ttlMs;
    return store.update<LeaseDoc>(NS, id, () => ({ owner: o.owner, expiresAt }), {
      expiresAt: expiresAt + KEEP_MS,
    });
  };
  return {
    owner: o.owner,
    ttlMs: o.ttlMs,
    exclusive: o.exclusive,
    holding: () => [...held].map(([id, about]) => ({ id, about })),
    async hold(id, about = {}) {
      held.set(id, about);
      await write(id).catch((err: unknown) => {
        held.delete(id);
        throw err;
      });
      let released = false;
      let timer: unknown;
      const renew = () => {
        timer = undefined;
        if (released) return;
        write(id).then(
          () => {
            if (!released) timer = timers.set(renew, Math.max(1, Math.floor(o.ttlMs / 3)));
          },
          (err: unknown) => {
            o.onRenewError?.(id, err);
            // Keep trying while the store is away: the lease is still ours if it comes back in time.
            if (!released) timer = timers.set(renew, Math.max(1, Math.floor(o.ttlMs / 6)));
          },
        );
      };
      timer = timers.set(renew, Math.max(1, Math.floor(o.ttlMs / 3)));
      return {
        owner: o.owner,
        async release() {
          released = true;
          held.delete(id);
          if (timer !== undefined) timers.clear(timer);
          await store.update<LeaseDoc>(NS, id, (cur) =>
            cur && cur.owner === o.owner ? { ...cur, expiresAt: Math.min(cur.expiresAt, o.now()) } : cur,
          );
        },
      };
    },
    async state(id) {
      const cur = await store.get<LeaseDoc>(NS, id);
      if (!cur) return { kind: "absent" };
      return {
        kind: cur.expiresAt > o.now() ? "live" : "expired",
        owner: cur.owner,
        expiresAt: cur.expiresAt,
      };
    },
  };
}
