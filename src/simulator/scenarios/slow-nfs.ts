/**
 * "slow-nfs": the demo array, but for the last hour NFS latency is six times its usual level while one NFS
 * client does most of the work. Every other protocol, and the days before, look as usual. This is the
 * incident `/array diagnose` must explain: NFS latency first, and the client behind it.
 */
import type { SimState } from "../state.js";
import { seedDemo } from "./demo.js";
import { HOUR } from "./units.js";

/** The client that floods the array (an NFS client: port 2049). */
export const SLOW_NFS_CLIENT = "10.21.40.23:2049";
const LATENCY_FACTOR = 6;
const CLIENT_LOAD = 100;

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
  state.effects = {
    performance(protocol, t) {
      if (!during(t)) return undefined;
      if (protocol === "nfs") return { latency: LATENCY_FACTOR, ops: 1.5 };
      if (protocol === "all") return { latency: allFactor, ops: 1.15 };
      return undefined;
    },
    client(name, t) {
      if (!during(t) || name !== SLOW_NFS_CLIENT) return undefined;
      return { ops: CLIENT_LOAD, latency: LATENCY_FACTOR };
    },
    truth: { protocol: "nfs", client: SLOW_NFS_CLIENT, from, to, latencyFactor: LATENCY_FACTOR },
  };
}
