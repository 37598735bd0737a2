/**
 * Long listings: the message shows the first rows ("showing 50 of 10,000") and the full listing goes along as
 * a CSV attachment, so nothing is silently dropped.
 */
import { oneUnitPerColumn } from "./column-units.js";
import type { Attachment, Block, RawValue, TableColumn } from "./message.js";

export const DEFAULT_ROW_LIMIT = 50;

export interface TableOutput {
  block: Block;
  attachments: Attachment[];
  /** Data rows in the CSV attachment (0 without one): fewer than `totalRows` when the fetch was capped. */
  csvRows: number;
  /** How many rows exist, fetched or not. */
  totalRows: number;
}

/**
 * A table block with at most `limit` rows; when there are more (or the array holds more than were fetched,
 * `totalRows`), the rows fetched go into a CSV attachment.
 */
export function truncatedTable(
  columns: TableColumn[],
  given: Record<string, string>[],
  opts: {
    /** Rows shown (RenderContext.tableRows); DEFAULT_ROW_LIMIT when undefined. */
    limit?: number | undefined;
    totalRows?: number;
    filename: string;
    title: string;
    /** Each row's raw values, in the order of `given`. */
    values?: Record<string, RawValue>[];
  },
): TableOutput {
  // Every table, the CSV too, writes a column of sizes in one unit (column-units.ts).
  const rows = oneUnitPerColumn(columns, given);
  const limit = opts.limit ?? DEFAULT_ROW_LIMIT;
  const total = Math.max(opts.totalRows ?? rows.length, rows.length);
  const shown = rows.slice(0, limit);
  const block: Block = {
    type: "table",
    columns,
    rows: shown,
    ...(total > shown.length ? { totalRows: total } : {}),
    ...(opts.values ? { values: opts.values.slice(0, limit) } : {}),
  };
  const attachments: Attachment[] =
    rows.length > shown.length
      ? [
          {
            filename: opts.filename,
            title: opts.title,
            contentType: "text/csv",
            content: toCsv(columns, rows),
          },
        ]
      : [];
  // The rows as given: --where/--sort re-pick the unit from the rows they keep, at full precision.
  sources.set(block, {
    columns,
    rows: given,
    filename: opts.filename,
    title: opts.title,
    ...(opts.values ? { values: opts.values } : {}),
  });
  return { block, attachments, csvRows: attachments.length > 0 ? rows.length : 0, totalRows: total };
}

/** Every row a table block was made from (the block holds only the first ones), for --where/--sort/--limit. */
export interface TableSource {
  columns: TableColumn[];
  rows: Record<string, string>[];
  filename: string;
  title: string;
  values?: Record<string, RawValue>[];
}

// Keyed by the block object, so the message model stays what the renderers see.
const sources = new WeakMap<Block, TableSource>();

export function tableSource(block: Block): TableSource | undefined {
  return sources.get(block);
}

/**
 * A cell a spreadsheet would run as a formula (it starts with `=`, `+`, `-` or `@`, maybe after blanks, or with
 * a tab, CR or LF) gets a leading apostrophe: spreadsheets show it as text and hide the apostrophe. Array
 * object names, alert texts and user-typed values reach these files, and a CSV is opened in Excel more often
 * than not. A plain number keeps its sign (`-5`, `-1.5e3`): a negative number is a value, not a formula.
 */
const FORMULA_START = /^(?:\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|[\t\r\n])/;
const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$/;

export function csvCell(v: string): string {
  const safe = FORMULA_START.test(v) && !PLAIN_NUMBER.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV line (without its line break): the labels when `row` is undefined. */
export function csvLine(columns: readonly TableColumn[], row?: Record<string, string>): string {
  return columns.map((c) => csvCell(row === undefined ? c.label : (row[c.key] ?? ""))).join(",");
}

/** RFC 4180 CSV. Cells that a spreadsheet would run as a formula get a leading apostrophe. */
export function toCsv(columns: readonly TableColumn[], rows: readonly Record<string, string>[]): string {
  const lines = [csvLine(columns)];
  for (const r of rows) lines.push(csvLine(columns, r));
  return `${lines.join("\r\n")}\r\n`;
}
