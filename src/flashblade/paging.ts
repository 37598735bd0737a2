/**
 * Walking a listing page by page without holding more than one page: follow `continuation_token` when the
 * array gives one, else advance `start` by what came back (arrays give no token when `sort` is set).
 */
import type { z } from "zod";
import { contract } from "./errors.js";
import type { Page, Query } from "./types.js";

export type GetPage = <T>(path: string, opts: { query: Query; schema?: z.ZodType<T> }) => Promise<Page<T>>;

export const DEFAULT_PAGE_SIZE = 1000;
/** 10 million objects at the default page size: far beyond any array, short of looping forever. */
export const MAX_PAGES = 10_000;

export async function* paginate<T>(
  getPage: GetPage,
  path: string,
  opts: { query?: Query; schema?: z.ZodType<T>; pageSize?: number; array?: string; maxPages?: number },
): AsyncGenerator<T, void, undefined> {
  const maxPages = opts.maxPages ?? MAX_PAGES;
  // A token with an empty page, or pages without end, would have us ask forever: the array is misbehaving.
  // (A repeated token is not refused: an array may name one server-side cursor by one token.)
  const stuck = (why: string) => contract(opts.array ?? "?", path, "continuation_token", why);
  const pageSize = Math.max(1, Math.floor(opts.pageSize ?? DEFAULT_PAGE_SIZE));
  const base: Query = { ...opts.query, limit: pageSize };
  const firstStart = typeof base.start === "number" ? base.start : 0;
  let start = firstStart;
  let token: string | undefined;
  for (let pages = 1; ; pages++) {
    if (pages > maxPages) throw stuck(`still more pages after ${maxPages}`);
    // The token carries the filter and position; sending it alone (with the page size) is what Pure's SDK does.
    const query: Query =
      token === undefined ? { ...base, start: start || undefined } : { token, limit: pageSize };
    const page = await getPage<T>(path, opts.schema ? { query, schema: opts.schema } : { query });
    const count = page.items.length;
    yield* page.items;
    if (page.continuationToken) {
      if (count === 0) throw stuck("an empty page still had a continuation token");
      token = page.continuationToken;
      continue;
    }
    if (token !== undefined || count === 0) return;
    start += count;
    const total = page.totalItemCount;
    if (total !== undefined ? start >= total : count < pageSize) return;
  }
}
