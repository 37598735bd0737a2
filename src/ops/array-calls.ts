/**
 * Array-call metrics: the array pool's observer (PoolDeps.onCall) feeding the Prometheus histogram and error
 * counter, recorded as each call completes. Labels stay bounded: array names come from the configuration and
 * codes from the client's codes. (An earlier version batched events to save prom-client's few microseconds per
 * observe; against a real array's tens of milliseconds that bought nothing worth the delayed, lossy counts.)
 */
import type { Counter, Histogram } from "prom-client";
import type { ArrayCallEvent } from "../flashblade/types.js";

export interface ArrayCallRecorder {
  /** The pool's observer (pass as PoolDeps.onCall). Never throws. */
  readonly record: (event: ArrayCallEvent) => void;
}

export function createArrayCallRecorder(
  seconds: Histogram<"array" | "outcome">,
  errors: Counter<"array" | "code">,
): ArrayCallRecorder {
  return {
    record(e) {
      seconds.observe({ array: e.array, outcome: e.outcome }, e.ms / 1000);
      if (e.outcome === "error") errors.inc({ array: e.array, code: e.code ?? "INTERNAL" });
    },
  };
}
