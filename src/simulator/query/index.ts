/**
 * The simulator's listing engine: query-string parsing, the filter grammar, selection, sorting, paging and
 * totals, shared by every collection the simulator serves.
 */
import type { SimRequest } from "../types.js";

export { compileFilter } from "./filter-eval.js";
export { parseQuery } from "./parse-query.js";

export interface ListOptions {
  /**
   * Whether this listing answers `total`/`total_only` at the request's version, and in which shape:
   * "object" sums numeric fields into one object, "list" into a one-element list, "none" rejects the parameters with 400.
   */
  totals: "object" | "list" | "none";
  /** Query parameters this endpoint selects by name (default ["names"]); every element must match or 400. */
  nameParams?: readonly string[];
  /** Field that `names` / `ids` match (default "name" / "id"). */
  nameField?: string;
  idField?: string;
}

/**
 * Applies names/ids selection, filter, sort, start/limit/token paging and totals to `items`, returning the full 1.x
 * envelope `{pagination_info:{continuation_token,total_item_count}, total?, items}`. Continuation tokens return every
 * item exactly once even if the collection changes while paging, and paging is not quadratic.
 */
export function listItems<T extends object>(
  _items: readonly T[],
  _req: SimRequest,
  _opts: ListOptions,
): unknown {
  throw new Error("not implemented");
}
