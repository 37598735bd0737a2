/**
 * The simulator's listing engine: query-string parsing, the filter grammar, selection, sorting, paging and
 * totals, shared by every collection the simulator serves.
 */
export { createCursorStore } from "./cursors.js";
export { compileFilter, type Predicate } from "./filter-eval.js";
export { type ListEnvelope, type ListOptions, listItems, type PaginationInfo } from "./list.js";
export { parseQuery } from "./parse-query.js";
export { sumItems } from "./totals.js";
