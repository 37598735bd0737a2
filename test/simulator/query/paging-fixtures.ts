/** Shared fixtures for the paging tests: numbered items, a private cursor store, and a token-following walk. */
import { createCursorStore, type ListOptions, listItems } from "../../../src/simulator/query/index.js";
import { qs, request } from "./request.js";

export interface Item {
  id: string;
  name: string;
  size: number;
}

export const makeItems = (n: number, prefix = "fs"): Item[] =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}-id-${i}`, name: `${prefix}${i}`, size: i }));

export function freshOptions(extra: Partial<ListOptions> = {}): ListOptions {
  return { totals: "object", cursors: createCursorStore(), ...extra };
}

/** Follows continuation tokens to the end, calling `between` before each next page. */
export function walk(
  items: () => readonly Item[],
  first: string,
  opts: ListOptions,
  between: (page: number, returned: ReadonlySet<string>) => void = () => {},
): { names: string[]; pages: number; counts: number[] } {
  let result = listItems(items(), request(first), opts);
  const names = result.items.map((i) => i.name);
  const counts = [result.pagination_info.total_item_count];
  let pages = 1;
  while (result.pagination_info.continuation_token !== null) {
    between(pages, new Set(names));
    result = listItems(items(), request(qs({ token: result.pagination_info.continuation_token })), opts);
    names.push(...result.items.map((i) => i.name));
    counts.push(result.pagination_info.total_item_count);
    pages++;
  }
  return { names, pages, counts };
}
