/**
 * One sample of array-wide performance per protocol, built the way a real array reports it: NFS is the sum of
 * its clients' operations, and its latencies are the clients' latencies weighted by their operations; "all" is
 * the same mix over the protocols. So the NFS figure, the clients that make it, and the all-protocol figure can
 * never disagree (issue 43: a "likely cause" client faster than the slowdown it causes).
 */
import { standardPerformance } from "../models/series.js";
import type { SimState } from "../state.js";

type Sample = Record<string, number>;

/** Share of the array's load each non-NFS protocol carries (NFS is whatever its clients do). */
export const OTHER_PROTOCOL_SCALE: Record<string, number> = { smb: 0.15, http: 0.05, s3: 0.25 };
export const PROTOCOLS = ["all", "nfs", ...Object.keys(OTHER_PROTOCOL_SCALE)];

/** A scenario's multipliers applied to one sample: latencies by `latency`, rates by `ops`. */
export function bend(m: Sample, by: { latency: number; ops: number } | undefined): Sample {
  if (!by) return m;
  const out: Sample = {};
  for (const [k, v] of Object.entries(m)) {
    const f = k.startsWith("usec_per_") ? by.latency : k.endsWith("_per_sec") ? by.ops : 1;
    out[k] = Math.round(v * f);
  }
  return out;
}

/** One client's sample at t, scenario included: what `/arrays/clients/performance` lists. */
export function clientSample(state: SimState, client: { name: string; weight: number }, t: number): Sample {
  return bend(
    standardPerformance(state.seed, `client:${client.name}`, t, client.weight, false),
    state.effects?.client?.(client.name, t),
  );
}

/** Each latency's operations: the mix weights every part's latency by the part's operations of that kind. */
const LATENCY_OPS: Record<string, string> = {
  usec_per_read_op: "reads_per_sec",
  usec_per_write_op: "writes_per_sec",
  usec_per_other_op: "others_per_sec",
};

/** The sum of several parts' samples: rates add, latencies are operation-weighted, sizes follow from the sums. */
export function mix(parts: readonly Sample[]): Sample {
  const sum = (k: string) => parts.reduce((a, p) => a + (p[k] ?? 0), 0);
  const out: Sample = {};
  for (const k of [
    "reads_per_sec",
    "writes_per_sec",
    "others_per_sec",
    "read_bytes_per_sec",
    "write_bytes_per_sec",
  ])
    out[k] = sum(k);
  for (const [lat, ops] of Object.entries(LATENCY_OPS)) {
    const n = out[ops] ?? 0;
    const weighted = parts.reduce((a, p) => a + (p[lat] ?? 0) * (p[ops] ?? 0), 0);
    // Whole microseconds, as the array reports them; a kind nobody does has no latency.
    out[lat] = n > 0 ? Math.round(weighted / n) : 0;
  }
  const reads = out["reads_per_sec"] ?? 0;
  const writes = out["writes_per_sec"] ?? 0;
  const ops = reads + writes + (out["others_per_sec"] ?? 0);
  const rb = out["read_bytes_per_sec"] ?? 0;
  const wb = out["write_bytes_per_sec"] ?? 0;
  out["bytes_per_read"] = reads > 0 ? Math.round(rb / reads) : 0;
  out["bytes_per_write"] = writes > 0 ? Math.round(wb / writes) : 0;
  out["bytes_per_op"] = ops > 0 ? Math.round((rb + wb) / ops) : 0;
  return out;
}

/** Array-wide performance of `protocol` at t: SMB, S3 and HTTP modelled, NFS and "all" mixed from their parts. */
export function protocolSample(state: SimState, protocol: string, t: number): Sample {
  if (protocol === "nfs") return mix(state.clients.map((c) => clientSample(state, c, t)));
  if (protocol === "all")
    return mix(PROTOCOLS.filter((p) => p !== "all").map((p) => protocolSample(state, p, t)));
  return bend(
    standardPerformance(
      state.seed,
      `array:${protocol}`,
      t,
      (OTHER_PROTOCOL_SCALE[protocol] ?? 0) * 10,
      false,
    ),
    state.effects?.performance?.(protocol, t),
  );
}
