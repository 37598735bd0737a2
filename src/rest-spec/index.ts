/**
 * The REST 1.x interface as data, owned by neither side: the endpoint table, the versions and their helpers.
 * The array client (src/flashblade), the commands and the simulator (src/simulator) all import from here, so
 * the client and the simulator meet only on the wire and neither depends on the other.
 */
export * from "./endpoints.js";
export * from "./versions.js";
