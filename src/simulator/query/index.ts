/**
 * The simulator's listing engine: query-string parsing, the filter grammar, selection, sorting, paging and
 * totals, shared by every collection the simulator serves.
 */
export { type Cursor, type CursorStore, type CursorStoreOptions, createCursorStore } from "./cursors.js";
export { compileFilter, type Predicate } from "./filter-eval.js";
export { type ListEnvelope, type ListOptions, listItems, type PaginationInfo } from "./list.js";
export { parseQuery } from "./parse-query.js";
export { parseSort, type SortKey, sortItems } from "./sort.js";
export { DEFAULT_TOTAL_SKIP, sumItems } from "./totals.js";
