/**
 * The pool's per-call observer (metrics): the event for a finished call, and a guard so an observer that
 * throws can never fail the call it is told about, nor flood the log.
 */
import { BotError, errorCode } from "../errors.js";
import type { Logger } from "../logger.js";
import type { HttpMethod } from "../rest-spec/endpoints.js";
import type { ArrayCallEvent } from "./types.js";

export type CallObserver = (event: ArrayCallEvent) => void;

/** The event for a call that answered `status` (success) or threw `err`. */
export function callEvent(
  array: string,
  method: HttpMethod,
  path: string,
  ms: number,
  outcome: { status: number } | { err: unknown },
): ArrayCallEvent {
  if ("status" in outcome) return { array, method, path, outcome: "ok", status: outcome.status, ms };
  const { err } = outcome;
  const event: ArrayCallEvent = { array, method, path, outcome: "error", code: errorCode(err), ms };
  const status = err instanceof BotError ? err.details.status : undefined;
  if (typeof status === "number") event.status = status;
  return event;
}

/** Wraps `observer` so it never throws; its first failure is logged, later ones are not. */
export function guardObserver(observer: CallObserver, log: Logger): CallObserver {
  let failed = false;
  return (event) => {
    try {
      observer(event);
    } catch (err) {
      if (failed) return;
      failed = true;
      log.warn(
        { reason: err instanceof Error ? err.message : String(err) },
        "array call observer failed; later failures are not logged",
      );
    }
  };
}
