/**
 * One trace id per request, from its trigger (a Slack command, an MCP call, a workflow step, a console line)
 * through its pending record, the clicks that decide it and its execution, to every array call and retry: held in
 * an AsyncLocalStorage, so no layer passes it by hand and nothing it calls can lose it. The logger adds it to every
 * line (`trace`), the auditor to every record; docs/tracing.md shows how to follow one request.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const store = new AsyncLocalStorage<string>();

/** Runs `fn` with `trace` as the current trace id (the request's id; a click runs under its request's). */
export function withTrace<T>(trace: string, fn: () => T): T {
  return store.run(trace, fn);
}

/** The trace id of the work running now, if any. */
export function currentTrace(): string | undefined {
  return store.getStore();
}
