/**
 * Array-call metrics: the array pool's observer (PoolDeps.onCall) feeding the Prometheus histogram and error
 * counter. Labels stay bounded: array names come from the configuration and codes from the client's codes.
 *
 * Why batched: recording runs on every array call. Measured in bench/client.ts, prom-client's observe() on
 * the call path cost ~5 µs per call there (it allocates a label object, a closure and a hash string each time),
 * about 1.5 % of a loopback list call. Keeping the event (already allocated by the pool) and handing events to
 * prom-client at scrape time, or every FLUSH_AT events, makes the call path's share one array push.
 */
import type { Counter, Histogram } from "prom-client";
import type { ArrayCallEvent } from "../flashblade/types.js";

const FLUSH_AT = 256;

export interface ArrayCallRecorder {
  /** The pool's observer (pass as PoolDeps.onCall). Never throws. */
  readonly record: (event: ArrayCallEvent) => void;
  /** Moves the kept events into the metrics; the metrics call it when scraped. */
  readonly flush: () => void;
}

export function createArrayCallRecorder(
  seconds: Histogram<"array" | "outcome">,
  errors: Counter<"array" | "code">,
): ArrayCallRecorder {
  let pending: ArrayCallEvent[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const events = pending;
    pending = [];
    for (const e of events) {
      seconds.observe({ array: e.array, outcome: e.outcome }, e.ms / 1000);
      if (e.outcome === "error") errors.inc({ array: e.array, code: e.code ?? "INTERNAL" });
    }
  };
  return {
    record(event) {
      pending.push(event);
      if (pending.length >= FLUSH_AT) flush();
    },
    flush,
  };
}
