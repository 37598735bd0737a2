/** The requests a simulator received since a mark, from its bounded log (tests assert what went on the wire). */
import type { LoggedRequest, Simulator } from "../../src/simulator/index.js";

export function requestMark(sim: Simulator): number {
  return sim.control.stats().total;
}

/** Mutating calls on `path` (below /api/<version>) since `mark`. */
export function writesSince(sim: Simulator, mark: number, path: string): LoggedRequest[] {
  const s = sim.control.stats();
  const n = s.total - mark;
  if (n > s.recent.length) throw new Error(`the request log kept ${s.recent.length} of ${n} requests`);
  const since = n <= 0 ? [] : s.recent.slice(-n);
  return since.filter((r) => r.method !== "GET" && /^\/api\/[\d.]+(\/.*)$/.exec(r.path)?.[1] === path);
}

export function queryOf(r: LoggedRequest | undefined): URLSearchParams {
  return new URLSearchParams(r?.query ?? "");
}
