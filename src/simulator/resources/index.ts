/**
 * Maps `METHOD path` to the handler that serves it. STUB: signatures agreed between the simulator's parts.
 */
import type { HttpMethod } from "../../flashblade/endpoints.js";
import type { SimState } from "../state.js";
import type { SimHandler } from "../types.js";

/**
 * The handler for a versioned endpoint of the table: a stateful one where the simulator models the resource,
 * otherwise the generic in-memory collection. Undefined only for paths outside the endpoint table.
 */
export function findHandler(_method: HttpMethod, _path: string): SimHandler<SimState> | undefined {
  throw new Error("not implemented");
}
