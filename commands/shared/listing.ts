/**
 * What the `list` verbs share: the query from --name/--destroyed/--sort, fetching up to a cap while counting
 * what the cap left out, merging a fan-out, and the answer (headline, table, CSV note).
 */
import type { z } from "zod";
import type { CommandContext, RenderContext } from "../../src/core/define-command.js";
import { type Message, message, rich } from "../../src/core/message.js";
import type { TableOutput } from "../../src/core/table.js";
import { and, type Filter, like } from "../../src/flashblade/filter.js";
import type { Query } from "../../src/flashblade/types.js";
import { hideDestroyedFilter } from "../../src/flashblade/wire.js";

/** Rows fetched at most; the message shows the first 50 and the CSV attachment holds them all. */
export const MAX_LIST_ROWS = 10_000;

export interface Listing<Row> {
  rows: Row[];
  /** How many match on the arrays, which may exceed rows fetched. */
  total: number;
}

export interface ListArgs {
  name?: string | undefined;
  destroyed?: boolean | undefined;
  sort?: { field: string; descending: boolean } | undefined;
  limit?: number | undefined;
}

/** The filter and sort for a list endpoint; destroyed objects are hidden unless asked for. */
export async function listQuery(
  args: ListArgs,
  ctx: CommandContext,
): Promise<{ filter: string | undefined; sort: string | undefined }> {
  const filters: Filter[] = [];
  if (args.name !== undefined) filters.push(like("name", args.name));
  const hide = args.destroyed ? undefined : hideDestroyedFilter(await ctx.array.version());
  if (hide) filters.push(hide);
  return {
    filter: filters.length > 0 ? and(...filters) : undefined,
    sort: args.sort ? `${args.sort.field}${args.sort.descending ? "-" : ""}` : undefined,
  };
}

/** Up to `limit` rows (default MAX_LIST_ROWS); when the cap is hit, the array counts the whole match. */
export async function fetchListing<T, Row>(
  ctx: CommandContext,
  path: string,
  opts: {
    query: Query;
    schema: z.ZodType<T>;
    limit: number | undefined;
    toRow: (item: T) => Row;
    /** What the count is asked with (the endpoints differ in which list parameters they take). */
    countQuery: Query;
  },
): Promise<Listing<Row>> {
  const cap = opts.limit ?? MAX_LIST_ROWS;
  const rows: Row[] = [];
  for await (const item of ctx.array.iterate(path, { query: opts.query, schema: opts.schema })) {
    if (rows.length >= cap) break;
    rows.push(opts.toRow(item));
  }
  const total = rows.length < cap ? rows.length : await ctx.array.count(path, opts.countQuery);
  return { rows, total };
}

export function mergeListings<Row>(results: { result: Listing<Row> }[]): Listing<Row> {
  return {
    rows: results.flatMap((r) => r.result.rows),
    total: results.reduce((n, r) => n + r.result.total, 0),
  };
}

/** "array lab1" or "3 arrays", and whether the table needs an Array column. */
export function arraysCovered(rctx: RenderContext): { many: boolean; where: string } {
  const many = rctx.arrays.length > 1;
  return { many, where: many ? `${rctx.arrays.length} arrays` : `array ${rctx.arrays[0] ?? "?"}` };
}

/** Headline, table, and a note when the full list went along as CSV. */
export function listingMessage(headline: string, table: TableOutput): Message {
  // The renderers say "showing N of M" from the table's totalRows; the note says where the rest is.
  const note = table.attachments.length ? rich`The full list is attached as CSV.` : undefined;
  return message(
    headline,
    [
      { type: "header", text: headline },
      table.block,
      ...(note ? [{ type: "context" as const, text: note }] : []),
    ],
    table.attachments.length ? { attachments: table.attachments } : {},
  );
}
