/**
 * `listItems`: names/ids selection, filter, sort, start/limit/token paging and totals over one collection,
 * answered as the 1.x envelope (fact sheet §4, §6, §8).
 */
import type { SimRequest } from "../types.js";
import { type CursorStore, createCursorStore } from "./cursors.js";
import { createResolver, type KeyOf, makeKeyOf, positionsIn } from "./item-index.js";
import { type ListParams, readListParams } from "./list-params.js";
import { selectItems } from "./select.js";
import { sortItems } from "./sort.js";
import { sumItems } from "./totals.js";

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
  /** What the collection holds, for "… does not exist" messages, e.g. "File system" (default "Item"). */
  noun?: string;
  /**
   * Identity of an item across requests, for continuation tokens (default: its id, else its name). Items with
   * no identity are resumed by position, which is exact only while the collection does not change.
   */
  keyOf?: (item: object) => string | number | undefined;
  /**
   * Current item by key, for handlers that keep a map and would rather not render the whole collection again
   * for a continuation page. Without it the engine finds items in `items` by their earlier position.
   */
  lookup?: (key: string | number) => object | undefined;
  /** Where continuation cursors live (default: one store shared by the process). */
  cursors?: CursorStore;
  /** Fields left out of `total` (default: `name` and the timestamp fields). */
  totalSkip?: readonly string[];
  /** `total` is in every answer, asked for or not (replication performance on real arrays). */
  alwaysTotal?: boolean;
}

export interface PaginationInfo {
  continuation_token: string | null;
  total_item_count: number;
}

export interface ListEnvelope<T> {
  pagination_info: PaginationInfo;
  total?: Record<string, unknown> | Record<string, unknown>[];
  items: T[];
}

const sharedCursors = createCursorStore();

/**
 * Applies names/ids selection, filter, sort, start/limit/token paging and totals to `items`, returning the full 1.x
 * envelope `{pagination_info:{continuation_token,total_item_count}, total?, items}`. Continuation tokens return every
 * item exactly once even if the collection changes while paging, and paging is not quadratic.
 */
export function listItems<T extends object>(
  items: readonly T[],
  req: SimRequest,
  opts: ListOptions,
): ListEnvelope<T> {
  const params = readListParams(req.query, opts.totals, req.version);
  const cursors = opts.cursors ?? sharedCursors;
  if (params.token !== undefined) return continueListing(items, req, opts, params, cursors);

  const selected = selectItems(items, req.query, opts);
  const filtered = params.filter === undefined ? selected : selected.filter(params.filter);
  const matched = params.sort.length > 0 ? sortItems(filtered, params.sort) : filtered;
  const count = matched.length;
  if (params.totalOnly) return envelope(null, count, [], totalOf(matched, opts), opts);

  const from = Math.min(params.start, count);
  const to = params.limit === undefined ? count : Math.min(count, from + params.limit);
  const page = matched.slice(from, to);
  let token: string | null = null;
  // A sorted listing pages with start only (SWG sort.query); limit=0 is a count query, not the start of a walk.
  if (params.limit !== undefined && params.limit > 0 && to < count && params.sort.length === 0) {
    const keyOf = keyFunction(opts);
    token = cursors.open({
      scope: req.path,
      keys: matched.slice(to).map((item) => keyOf(item)),
      positions: positionsIn(items, matched, to),
      shift: { value: 0 },
      filter: params.filter,
      limit: params.limit,
      totalItemCount: count,
    });
  }
  return envelope(
    token,
    count,
    page,
    params.total || opts.alwaysTotal ? totalOf(page, opts) : undefined,
    opts,
  );
}

function continueListing<T extends object>(
  items: readonly T[],
  req: SimRequest,
  opts: ListOptions,
  params: ListParams,
  cursors: CursorStore,
): ListEnvelope<T> {
  const { cursor, position, id } = cursors.resume(params.token ?? "", req.path);
  const limit = params.limit ?? cursor.limit;
  const resolve = createResolver(items, keyFunction(opts), cursor, opts.lookup);
  const page: T[] = [];
  let next = position;
  // Keys of items deleted since the first page resolve to nothing and are skipped, as are items that changed
  // so that they no longer match the filter.
  while (next < cursor.keys.length && page.length < limit) {
    const item = resolve(next);
    next++;
    if (item !== undefined && (cursor.filter === undefined || cursor.filter(item))) page.push(item);
  }
  let token: string | null = null;
  if (next < cursor.keys.length) token = cursors.tokenAt(id, next);
  else cursors.close(id);
  const total = params.total || params.totalOnly || opts.alwaysTotal ? totalOf(page, opts) : undefined;
  return envelope(token, cursor.totalItemCount, params.totalOnly ? [] : page, total, opts);
}

function keyFunction(opts: ListOptions): KeyOf {
  return opts.keyOf ?? makeKeyOf(opts.idField ?? "id", opts.nameField ?? "name");
}

function totalOf(items: readonly object[], opts: ListOptions): Record<string, unknown> {
  return sumItems(items, opts.totalSkip);
}

function envelope<T>(
  token: string | null,
  count: number,
  items: T[],
  total: Record<string, unknown> | undefined,
  opts: ListOptions,
): ListEnvelope<T> {
  const pagination_info = { continuation_token: token, total_item_count: count };
  if (total === undefined) return { pagination_info, items };
  return { pagination_info, total: opts.totals === "list" ? [total] : total, items };
}
