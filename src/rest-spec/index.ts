/**
 * The REST interface (1.x and 2.x) as data, owned by neither side: the endpoint table, the versions and their helpers.
 * The array client (src/flashblade), the commands and the simulator (src/simulator) all import from here, so
 * the client and the simulator meet only on the wire and neither depends on the other.
 */

export * from "./dialect.js";
export * from "./endpoints.js";
export * from "./endpoints-2x.js";
export * from "./operations.js";
export * from "./versions.js";
