/**
 * "slow-nfs": the demo array, but for the last hour one NFS client does most of the work, ten times slower than
 * usual, so NFS latency (the clients' operation-weighted mix) rises about five-fold. Every other protocol, and the days before, look as usual. This is the
 * incident `/array diagnose` must explain: NFS latency first, and the client behind it.
 */
import type { SimState } from "../state.js";
import { seedDemo } from "./demo.js";
import { HOUR } from "./units.js";

/** The client that floods the array (an NFS client: port 2049). */
export const SLOW_NFS_CLIENT = "10.21.40.23:2049";
// Ten times its usual latency, so NFS as a whole (mostly this client then) is five to six times its usual.
const LATENCY_FACTOR = 10;
// Its usual weight, and how many times that it does during the incident: large enough that it plainly
// dominates NFS at every hour of the day (about three quarters of its operations against the demo's clients).
const CLIENT_WEIGHT = 0.2;
const CLIENT_LOAD = 75;

export function seedSlowNfs(state: SimState): void {
  seedDemo(state);
  const seededAt = state.clock();
  // The jump started 55 minutes before the scenario was created and lasts an hour and a bit past it, so a
  // `--since 1h` asked within the next hour sees it.
  const from = seededAt - 55 * 60_000;
  const to = seededAt + 2 * HOUR;
  const during = (t: number) => t >= from && t <= to;
  const hosts = state.clients.map((c) => c.name);
  if (!hosts.includes(SLOW_NFS_CLIENT)) state.clients.push({ name: SLOW_NFS_CLIENT, weight: CLIENT_WEIGHT });
  // Only the client changes: NFS and all-protocol figures are mixes of their parts (resources/protocol-samples),
  // so its operations raise the NFS total and its latency the NFS latency by exactly its share.
  state.effects = {
    client(name, t) {
      if (!during(t) || name !== SLOW_NFS_CLIENT) return undefined;
      return { ops: CLIENT_LOAD, latency: LATENCY_FACTOR };
    },
    truth: { protocol: "nfs", client: SLOW_NFS_CLIENT, from, to, latencyFactor: LATENCY_FACTOR },
  };
}
