/**
 * Calls a second person is waiting on to carry out an approved change: the recheck of the array state after the
 * last Approve, and the change itself (execute-pending.ts; a Confirm's are not urgent: they are many). Held in an
 * AsyncLocalStorage (as the trace id is, src/trace.ts), so the approval's code marks its work once and every
 * array call under it, however deep, knows.
 *
 * Why: with more arrays than the pool's bound on sockets (array_pool.max_sockets), connects wait for a place and
 * an array's calls queue on the sockets it has (transport.ts, #crowded). An approval's recheck reads five things
 * at once; queued one behind another on a 140 ms array they took three round trips, and the approval ~600 ms,
 * behind reads and alert polls that nobody is watching as closely. An urgent call is not held back for the
 * array's own sockets, its connects take the first free place, before other arrays' connects, and it may run
 * one beyond the array's calls at once and sockets (limiter.ts URGENT_EXTRA), ahead of calls queued there: the
 * five reads go out together over four connections.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const store = new AsyncLocalStorage<true>();

/** Runs `fn` with its array calls urgent. */
export function urgently<T>(fn: () => T): T {
  return store.run(true, fn);
}

/** Whether the work running now is urgent. */
export function isUrgent(): boolean {
  return store.getStore() === true;
}
