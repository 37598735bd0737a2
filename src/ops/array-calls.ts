/**
 * Array-call metrics: the array pool's observer (PoolDeps.onCall) recording into the Prometheus registry.
 * Labels stay bounded: array names come from the configuration and codes from the client's error codes.
 */
import type { ArrayCallEvent } from "../flashblade/types.js";
import type { Metrics } from "./metrics.js";

export function arrayCallRecorder(
  metrics: Pick<Metrics, "arrayCallSeconds" | "arrayCallErrors">,
): (event: ArrayCallEvent) => void {
  return (event) => {
    metrics.arrayCallSeconds.observe({ array: event.array, outcome: event.outcome }, event.ms / 1000);
    if (event.outcome === "error") {
      metrics.arrayCallErrors.inc({ array: event.array, code: event.code ?? "INTERNAL" });
    }
  };
}
