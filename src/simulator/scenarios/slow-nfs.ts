/**
 * "slow-nfs": the demo array, but for the last hour NFS latency is six times its usual level while one NFS
 * client does most of the work. Every other protocol, and the days before, look as usual. This is the
 * incident `/array diagnose` must explain: NFS latency first, and the client behind it.
 */
import { standardPerformance } from "../models/series.js";
import type { SimState } from "../state.js";
import { seedDemo } from "./demo.js";
import { HOUR } from "./units.js";

/** The client that floods the array (an NFS client: port 2049). */
export const SLOW_NFS_CLIENT = "10.21.40.23:2049";
const LATENCY_FACTOR = 6;
// Large enough that the client plainly dominates NFS at every hour of the day (about 60 % of its operations).
const CLIENT_LOAD = 250;

export function seedSlowNfs(state: SimState): void {
  seedDemo(state);
  const seededAt = state.clock();
  // The jump started 55 minutes before the scenario was created and lasts an hour and a bit past it, so a
  // `--since 1h` asked within the next hour sees it.
  const from = seededAt - 55 * 60_000;
  const to = seededAt + 2 * HOUR;
  const during = (t: number) => t >= from && t <= to;
  const hosts = state.clients.map((c) => c.name);
  if (!hosts.includes(SLOW_NFS_CLIENT)) state.clients.push({ name: SLOW_NFS_CLIENT, weight: 0.05 });
  // NFS carries about half the load, so the all-protocol latency rises by about half as much.
  const allFactor = 1 + 0.55 * (LATENCY_FACTOR - 1);
  // The flood is part of the totals it floods: NFS and all-protocol operations rise by exactly the client's
  // extra operations, so its share of NFS operations reads true (the keys and scales of resources/performance).
  const opsOf = (m: Record<string, number>) =>
    (m["reads_per_sec"] ?? 0) + (m["writes_per_sec"] ?? 0) + (m["others_per_sec"] ?? 0);
  const raised = (key: string, scale: number, t: number) => {
    const usual = opsOf(standardPerformance(state.seed, key, t, scale, false));
    const extra =
      opsOf(standardPerformance(state.seed, `client:${SLOW_NFS_CLIENT}`, t, 0.05, false)) * (CLIENT_LOAD - 1);
    return usual > 0 ? (usual + extra) / usual : 1;
  };
  state.effects = {
    performance(protocol, t) {
      if (!during(t)) return undefined;
      if (protocol === "nfs") return { latency: LATENCY_FACTOR, ops: raised("array:nfs", 5.5, t) };
      if (protocol === "all") return { latency: allFactor, ops: raised("array:all", 10, t) };
      return undefined;
    },
    client(name, t) {
      if (!during(t) || name !== SLOW_NFS_CLIENT) return undefined;
      return { ops: CLIENT_LOAD, latency: LATENCY_FACTOR };
    },
    truth: { protocol: "nfs", client: SLOW_NFS_CLIENT, from, to, latencyFactor: LATENCY_FACTOR },
  };
}
