/**
 * Simulated arrays running in this process, by the management addresses they answer on: what a real array
 * learns when it connects to a peer (its name and id, and whether the connection key is one the peer issued).
 * The simulators meet here only as arrays meet on a network: by address, through the connection key.
 */
import type { SimState } from "./state.js";

const byAddress = new Map<string, SimState>();

/** The addresses an array on `host:port` answers on: with and without the port, loopback spelled both ways. */
function addressesOf(host: string, port: number): string[] {
  const hosts = host === "127.0.0.1" || host === "localhost" ? ["127.0.0.1", "localhost"] : [host];
  return hosts.flatMap((h) => [`${h}:${port}`, `https://${h}:${port}`]);
}

/** Makes a started simulator reachable by its address; the returned function forgets it again. */
export function registerPeer(host: string, port: number, state: SimState): () => void {
  const addresses = addressesOf(host, port);
  for (const a of addresses) byAddress.set(a, state);
  return () => {
    for (const a of addresses) if (byAddress.get(a) === state) byAddress.delete(a);
  };
}

/** The simulated array answering on `address`, if one runs in this process. */
export function findPeer(address: string): SimState | undefined {
  return byAddress.get(address.replace(/\/+$/, ""));
}

/** Every simulated array running in this process, once each: fleet members find each other here by name. */
export function allPeers(): SimState[] {
  return [...new Set(byAddress.values())];
}
