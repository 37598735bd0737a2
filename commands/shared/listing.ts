/**
 * What the `list` verbs share: the query from --name/--destroyed/--sort, fetching up to a cap while counting
 * what the cap left out, merging a fan-out, and the answer (headline, table, CSV note).
 */
import type { z } from "zod";
import type { CommandContext, RenderContext } from "../../src/core/catalogue/define-command.js";
import {
  escapeText,
  type Message,
  message,
  type RawValue,
  Rich,
  rich,
  type SpooledFile,
  type TableColumn,
} from "../../src/core/presentation/message.js";
import { type CsvSpool, createCsvSpool, removeSpooled } from "../../src/core/presentation/spool.js";
import { type TableOutput, truncatedTable } from "../../src/core/presentation/table.js";
import { countOf } from "../../src/core/words/units.js";
import { and, type Filter, like } from "../../src/flashblade/filter.js";
import type { Query } from "../../src/flashblade/types.js";
import { hideDestroyedFilter } from "../../src/flashblade/wire.js";

/** Rows fetched at most; the message shows the first 50 and the CSV attachment holds them all. */
export const MAX_LIST_ROWS = 10_000;

export interface Listing<Row> {
  rows: Row[];
  /** How many match on the arrays, which may exceed rows fetched. */
  total: number;
  /** Every row as CSV, streamed to a file page by page when there were more than `rows` holds. */
  spool?: { file: SpooledFile; rows: number };
}

/** Rows streamed into one CSV at most: beyond this the answer says which rows it holds instead. */
export const MAX_SPOOLED_ROWS = 2_000_000;

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

/**
 * Up to `limit` rows (default MAX_LIST_ROWS) in memory. Past the cap, with `spool` (and no --limit), every
 * row goes on into a CSV file page by page (memory stays flat); without it, the array counts the whole match.
 */
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
    /** The CSV's columns and a row's cells, to stream a listing longer than the cap into one file. */
    spool?: {
      columns: readonly TableColumn[];
      cells: (row: Row) => Record<string, string>;
      filename: string;
    };
  },
): Promise<Listing<Row>> {
  const cap = opts.limit ?? MAX_LIST_ROWS;
  const spooling = opts.limit === undefined ? opts.spool : undefined;
  const rows: Row[] = [];
  let spool: CsvSpool | undefined;
  let complete = true;
  try {
    for await (const item of ctx.array.iterate(path, { query: opts.query, schema: opts.schema })) {
      const row = opts.toRow(item);
      if (rows.length < cap) {
        rows.push(row);
        continue;
      }
      if (spooling === undefined || (spool?.rows ?? 0) >= MAX_SPOOLED_ROWS) {
        complete = false;
        break;
      }
      if (spool === undefined) {
        spool = await createCsvSpool(spooling.columns, spooling.filename);
        for (const r of rows) await spool.write(spooling.cells(r));
      }
      await spool.write(spooling.cells(row));
    }
  } catch (err) {
    // A page that fails half-way leaves no temporary file behind.
    await spool?.abort();
    throw err;
  }
  if (spool !== undefined) {
    const file = await spool.finish();
    if (complete && !(typeof opts.query.start === "number" && opts.query.start > 0)) {
      return { rows, total: spool.rows, spool: { file, rows: spool.rows } };
    }
    const total = await ctx.array.count(path, opts.countQuery);
    return { rows, total, spool: { file, rows: spool.rows } };
  }
  // From an offset (--start), what is left says nothing about the whole match: count it.
  const fromStart = typeof opts.query.start === "number" && opts.query.start > 0;
  const total = rows.length < cap && !fromStart ? rows.length : await ctx.array.count(path, opts.countQuery);
  return { rows, total };
}

export function mergeListings<Row>(results: { result: Listing<Row> }[]): Listing<Row> {
  // One CSV per array cannot be one answer's attachment: the answer says which rows it holds instead.
  for (const r of results) if (r.result.spool) void removeSpooled(r.result.spool.file).catch(() => {});
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

/** A command to copy: inside a code span Slack formats nothing, so only &, < and > are escaped (and `). */
function codeSpan(text: string): Rich {
  return new Rich(`\`${escapeText(text).replace(/`/g, "'")}\``);
}

/**
 * Headline, table, and a note saying what the CSV holds. When the fetch was capped the note says exactly which
 * rows it holds and, with `continueWith` (the command that lists the next rows), how to get the rest.
 */
export function listingMessage(
  headline: string,
  tableIn: TableOutput,
  opts: {
    continueWith?: string | undefined;
    offset?: number | undefined;
    spool?: { file: SpooledFile; rows: number } | undefined;
  } = {},
): Message {
  // A streamed CSV replaces the one built from the rows in memory: it holds every row.
  const table: TableOutput = opts.spool
    ? {
        ...tableIn,
        attachments: tableIn.attachments.map((a) => ({ ...a, content: opts.spool?.file ?? a.content })),
        csvRows: opts.spool.rows,
      }
    : tableIn;
  // The renderers say "showing N of M" from the table's totalRows; the note says where the rest is.
  const offset = opts.offset ?? 0;
  const n = (x: number) => x.toLocaleString("en-US");
  let note: Rich | undefined;
  if (table.attachments.length > 0 && offset === 0 && table.csvRows >= table.totalRows) {
    note = rich`The full list is attached as CSV.`;
  } else if (table.attachments.length > 0) {
    const held = rich`The attached CSV holds rows ${n(offset + 1)}–${n(offset + table.csvRows)} of ${n(table.totalRows)} (${opts.spool ? `at most ${n(MAX_SPOOLED_ROWS)} in one file` : `at most ${n(MAX_LIST_ROWS)} per array`}).`;
    const last = offset + table.csvRows >= table.totalRows;
    note = last
      ? held
      : opts.continueWith
        ? rich`${held} For the next ones: ${codeSpan(opts.continueWith)}; or narrow the list with --name.`
        : rich`${held} Narrow the list with --name, or list one array at a time.`;
  }
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

/** Table columns from key → label; the keys in `right` (or, with `"numbers"`, all but the first) align right. */
export function columnsOf(
  labels: Record<string, string>,
  right: readonly string[] | "numbers" = [],
): TableColumn[] {
  const isRight = (key: string, i: number) => (right === "numbers" ? i > 0 : right.includes(key));
  return Object.entries(labels).map(([key, label], i) => ({
    key,
    label,
    ...(isRight(key, i) && { align: "right" }),
  }));
}

/**
 * What a plain list's answer says: `noun` names one row ("access key") and `scope` what narrowed the list ("for
 * analytics/etl"), for the empty sentence, the headline and the CSV's name; `empty`, `headline` and `filename`
 * say otherwise (a list without a noun gives all three). `total` counts the matches when fewer rows were fetched.
 */
interface ListingOptions {
  noun?: string;
  scope?: string | undefined;
  empty?(where: string): string;
  headline?(where: string): string;
  filename?: string;
  title?(where: string): string;
  total?: number;
  columns: TableColumn[] | Record<string, string>;
  right?: readonly string[];
  /** A listing fetched from an offset, streamed to a CSV, or continued by a command (see listingMessage). */
  offset?: number;
  spool?: Listing<unknown>["spool"];
  continueWith?(csvRows: number): string | undefined;
  /** Each row's raw values keyed by column, in the order of the rows (faces that carry data give them). */
  values?: Record<string, RawValue>[];
}

/**
 * The `merge` and `render` of a list whose `run` gives rows per array: the rows of every array, shown by
 * rowsListing with an Array cell first; `cells` turns a row into the table's text, `raw` into its raw values
 * under the same keys (sizes in bytes, times ISO 8601), `words` names the list.
 */
export function rowsListed<A, Row extends { array: string }>(
  cells: (row: Row, rctx: RenderContext) => Record<string, string>,
  words: (a: A) => ListingOptions,
  raw: (row: Row) => Record<string, RawValue>,
): { merge(results: { result: Row[] }[]): Row[]; render(rows: Row[], a: A, rctx: RenderContext): Message } {
  return {
    merge: (results) => results.flatMap((r) => r.result),
    render: (rows, a, rctx) =>
      rowsListing(
        rctx,
        rows.map((r) => ({ array: r.array, ...cells(r, rctx) })),
        { ...words(a), values: rows.map((r) => ({ array: r.array, ...raw(r) })) },
      ),
  };
}

/** The answer of a plain list: a sentence when no array has rows, else a headline over a table of them, with an
 * Array column first when several arrays answered. */
export function rowsListing(rctx: RenderContext, rows: Record<string, string>[], o: ListingOptions): Message {
  const { many, where } = arraysCovered(rctx);
  const noun = o.noun ?? "row";
  const scope = o.scope ? ` ${o.scope}` : "";
  const totalRows = o.total ?? rows.length;
  if (rows.length === 0) {
    const empty = o.empty?.(where) ?? `No ${noun}s${scope} on ${where}.`;
    return message(empty, [{ type: "section", text: rich`${empty}` }]);
  }
  const headline = o.headline?.(where) ?? `${countOf(totalRows, noun)}${scope} on ${where}`;
  const columns = [
    ...(many ? [{ key: "array", label: "Array" }] : []),
    ...(Array.isArray(o.columns) ? o.columns : columnsOf(o.columns, o.right)),
  ];
  const filename = o.filename ?? `${noun.replace(/ /g, "-")}s.csv`;
  const title = o.title?.(where) ?? headline;
  const table = truncatedTable(columns, rows, {
    limit: rctx.tableRows,
    filename,
    title,
    totalRows,
    ...(o.values ? { values: o.values } : {}),
  });
  return listingMessage(headline, table, {
    continueWith: o.continueWith?.(table.csvRows),
    offset: o.offset,
    spool: o.spool,
  });
}
