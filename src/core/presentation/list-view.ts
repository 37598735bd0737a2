/**
 * `--where`, `--sort` and `--limit` over the table a list answers with: one implementation for every list,
 * applied to the rows as shown (computed columns such as "Used %" included) and, with `--array all`, to the
 * merged rows of every array.
 *
 * Grammar (docs/console.md, "Filtering and sorting lists"):
 *   where   := cond (("and" | ",") cond)*
 *   cond    := column op value
 *   column  := a column's label as shown ("Used %", spaces optional: used%) or its key
 *   op      := >  >=  <  <=  =  !=  ~        (~: contains, or a pattern with *)
 *   value   := 90 | 90% | 500G | 1.5T (binary units, as in every size) | 7d | text ('quoted' when it has spaces)
 *   sort    := column, "-" appended for descending (used%-)
 * A row whose cell is empty ("–") never matches a comparison and sorts last. A cell is compared and sorted by
 * its value, without the mark it may carry (`✓ healthy` is `healthy`, `64 ⚠ under 90` is 64: cell-marks.ts);
 * `~` searches the cell as shown too.
 */
import { UserFacingError } from "../../errors.js";
import { didYouMean, suggest } from "../words/suggest.js";
import { parseDuration, parseSize } from "../words/units.js";
import { userText } from "../words/user-text.js";
import { cellValue } from "./cell-marks.js";
import { oneUnitPerColumn } from "./column-units.js";
import type { Block, Message, TableColumn } from "./message.js";
import { isSpooled } from "./message.js";
import { removeSpooled } from "./spool.js";
import { DEFAULT_ROW_LIMIT, tableSource, toCsv } from "./table.js";

export interface ListView {
  where?: string;
  sort?: string;
  limit?: number;
  /** Whether the command itself understood --sort (a field of the array's): then a word that is no column is fine. */
  commandSorts?: boolean;
}

type Op = ">" | ">=" | "<" | "<=" | "=" | "!=" | "~";
interface Cond {
  column: TableColumn;
  op: Op;
  value: string;
}

const COND = /^\s*(.+?)\s*(>=|<=|!=|=|>|<|~)\s*(.+?)\s*$/;

const norm = (s: string) => s.toLowerCase().replace(/[\s_-]/g, "");

/** The column a user named, by its label as shown or its key; refused with the nearest names otherwise. */
export function findColumn(columns: readonly TableColumn[], name: string, option: string): TableColumn {
  const n = norm(name);
  const hit = columns.find((c) => norm(c.label) === n) ?? columns.find((c) => norm(c.key) === n);
  if (hit) return hit;
  // Offered as they can be typed: without spaces, so "used%" needs no quoting.
  const labels = columns.map((c) => c.label.toLowerCase().replace(/\s+/g, ""));
  const near = suggest(name, labels);
  throw new UserFacingError(
    "LIST_UNKNOWN_COLUMN",
    `${option}: this list has no column \`${userText(name)}\`.${didYouMean(near)} Its columns: ${labels.join(", ")}.`,
    { suggestions: near },
  );
}

function parseWhere(text: string, columns: readonly TableColumn[]): Cond[] {
  return text
    .split(/\s+and\s+|\s*,\s*|\s*&&\s*/i)
    .filter((p) => p.trim() !== "")
    .map((part) => {
      const m = COND.exec(part);
      if (!m)
        throw new UserFacingError(
          "LIST_BAD_WHERE",
          `--where: \`${userText(part)}\` is not a condition; write <column> <op> <value> with op one of > >= < <= = != ~ (e.g. --where "used% > 90").`,
        );
      // A value typed as the cell shows it (`✓ healthy`) is the value without its mark, as cells are read.
      const value = cellValue((m[3] as string).replace(/^(['"])(.*)\1$/, "$2"));
      return { column: findColumn(columns, m[1] as string, "--where"), op: m[2] as Op, value };
    });
}

/** A number a cell or value stands for: a size in bytes, a percentage, a duration in ms, or a plain number. */
function numberOf(text: string, kind: "size" | "duration" | "number"): number | undefined {
  const t = text.trim().replace(/,/g, "");
  if (kind === "size") return parseSize(t);
  if (kind === "duration") {
    const d = parseDuration(t.replace(/\s+/g, "").replace(/ago$/, ""));
    if (d !== undefined) return d;
  }
  const m = /^[<>~≈]?\s*(-?\d+(?:\.\d+)?)/.exec(t);
  return m ? Number(m[1]) : undefined;
}

function kindOf(value: string): "size" | "duration" | "number" | "text" {
  const v = value.trim();
  if (/^-?\d+(\.\d+)?\s*%?$/.test(v)) return "number";
  if (parseSize(v) !== undefined) return "size";
  if (parseDuration(v) !== undefined) return "duration";
  return "text";
}

const EMPTY = new Set(["", "–", "-", "—", "?", "n/a"]);

function matches(cond: Cond, row: Record<string, string>): boolean {
  const shown = row[cond.column.key] ?? "";
  const cell = cellValue(shown);
  const kind = kindOf(cond.value);
  if (cond.op === "~") {
    const v = cond.value.toLowerCase();
    const texts = [cell.toLowerCase(), shown.toLowerCase()];
    if (!v.includes("*")) return texts.some((c) => c.includes(v));
    const re = new RegExp(`^${v.split("*").map(escapeRe).join(".*")}$`);
    return texts.some((c) => re.test(c));
  }
  if (kind === "text") {
    const eq = cell.toLowerCase() === cond.value.toLowerCase();
    if (cond.op === "=") return eq;
    if (cond.op === "!=") return !eq;
    throw new UserFacingError(
      "LIST_BAD_WHERE",
      `--where: \`${userText(cond.value)}\` is not a number, percentage, size or duration, so it cannot be compared with ${cond.op}; use = != or ~ for text.`,
    );
  }
  if (EMPTY.has(cell.trim())) return cond.op === "!=";
  const a = numberOf(cell, kind);
  const b = numberOf(cond.value, kind);
  if (a === undefined || b === undefined) return cond.op === "!=";
  switch (cond.op) {
    case ">":
      return a > b;
    case ">=":
      return a >= b;
    case "<":
      return a < b;
    case "<=":
      return a <= b;
    case "=":
      return a === b;
    default:
      return a !== b;
  }
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * What a column's cells stand for as numbers (sizes in bytes, durations in ms, numbers and percentages), when
 * every cell that is not empty is one of the same kind; undefined for a column of text. Renderers that sort in
 * the client (Slack's data tables) use it so `1.5 TiB` sorts above `900 GiB`.
 */
export function columnNumbers(cells: readonly string[]): (number | undefined)[] | undefined {
  // Words that stand for no number (`unlimited`, `never`) leave a hole, as an empty cell does.
  const hole = (c: string) => EMPTY.has(c.trim()) || NO_NUMBER.test(c.trim());
  // The first cell of text, or of a second kind, settles it: a column of names is not read to its end.
  let found: "size" | "duration" | "number" | undefined;
  for (const shown of cells) {
    const c = cellValue(shown);
    if (hole(c)) continue;
    const t = c.trim();
    const k = STRICT_NUMBER.test(t) ? "number" : kindOf(t);
    if (k === "text" || (found !== undefined && k !== found)) return undefined;
    found = k;
  }
  const kind = found;
  if (kind === undefined) return undefined;
  const values = cells.map((c) => (hole(cellValue(c)) ? undefined : numberOf(cellValue(c), kind)));
  return values.every((v, i) => v !== undefined || hole(cellValue(cells[i] ?? ""))) ? values : undefined;
}

const NO_NUMBER = /^(unlimited|none|never|off|n\/a|unknown)$/i;

/** A plain number as cells show it: `1,234`, `-5`, `93 %`, `< 1`. */
const STRICT_NUMBER = /^[<>~≈]?\s*-?[\d,]+(\.\d+)?\s*%?$/;

/** Orders cells as what they stand for: sizes as bytes, numbers and percentages as numbers, else as text. */
function compareCells(shownA: string, shownB: string): number {
  const a = cellValue(shownA);
  const b = cellValue(shownB);
  const ea = EMPTY.has(a.trim());
  const eb = EMPTY.has(b.trim());
  if (ea || eb) return ea === eb ? 0 : ea ? 1 : -1;
  for (const kind of ["size", "duration", "number"] as const) {
    const x = numberOf(a, kind);
    const y = numberOf(b, kind);
    if (x !== undefined && y !== undefined) return x - y;
  }
  return a.localeCompare(b, "en", { numeric: true, sensitivity: "base" });
}

function sortOf(text: string, columns: readonly TableColumn[], lenient: boolean) {
  const descending = text.endsWith("-");
  const name = descending ? text.slice(0, -1) : text;
  try {
    return { column: findColumn(columns, name, "--sort"), descending };
  } catch (err) {
    if (lenient) return undefined;
    throw err;
  }
}

/** The first table of an answer filtered, sorted and cut as asked; its header says what was kept. */
export function applyListView(
  msg: Message,
  view: ListView | undefined,
  /** Rows shown (the `table_rows` setting); the rest go with the answer as CSV. */
  tableRows: number = DEFAULT_ROW_LIMIT,
): Message {
  if (!view || (view.where === undefined && view.sort === undefined && view.limit === undefined)) return msg;
  const index = msg.blocks.findIndex((b) => b.type === "table");
  const block = msg.blocks[index];
  if (block === undefined || block.type !== "table") {
    if (view.where !== undefined)
      throw new UserFacingError("LIST_NO_TABLE", "--where filters lists; this answer has no list to filter.");
    return msg;
  }
  const source = tableSource(block) ?? {
    columns: block.columns,
    rows: block.rows,
    filename: "list.csv",
    title: "list",
    ...(block.values ? { values: block.values } : {}),
  };
  // Raw values follow their row through the filter and the sort (rows keep their identity).
  const valuesOf = new Map(source.values ? source.rows.map((r, i) => [r, source.values?.[i] ?? {}]) : []);
  let rows = [...source.rows];
  const said: string[] = [];
  if (view.where !== undefined) {
    const conds = parseWhere(view.where, source.columns);
    rows = rows.filter((r) => conds.every((c) => matches(c, r)));
    said.push(`${rows.length} where ${view.where}`);
  }
  const sort = view.sort === undefined ? undefined : sortOf(view.sort, source.columns, !!view.commandSorts);
  if (sort) {
    const key = sort.column.key;
    rows.sort((x, y) => {
      const c = compareCells(x[key] ?? "", y[key] ?? "");
      // Empty cells stay last whichever way the sort goes.
      const empty = EMPTY.has((x[key] ?? "").trim()) || EMPTY.has((y[key] ?? "").trim());
      return sort.descending && !empty ? -c : c;
    });
    said.push(`by ${sort.column.label}${sort.descending ? " (descending)" : ""}`);
  }
  // Without a filter the count stays what the list had (the array may hold more than were fetched).
  const total =
    view.where === undefined
      ? Math.max(block.totalRows ?? block.rows.length, source.rows.length)
      : rows.length;
  // What --limit cuts from the table stays in the CSV: the table is for reading, the file holds every row.
  const everyRow = rows;
  if (view.limit !== undefined) rows = rows.slice(0, view.limit);
  // The unit of the rows kept: a filter that drops the largest value does not leave its unit behind.
  rows = oneUnitPerColumn(source.columns, rows);
  const shown = rows.slice(0, tableRows);
  const table: Block = {
    type: "table",
    columns: block.columns,
    rows: shown,
    ...(total > shown.length ? { totalRows: total } : {}),
    ...(source.values ? { values: shown.map((r) => valuesOf.get(r) ?? {}) } : {}),
  };
  const csv = source.filename;
  const attachments = (msg.attachments ?? []).filter((a) => a.filename !== csv);
  // A listing streamed to a temporary file is replaced by the rows kept: the file goes.
  for (const a of msg.attachments ?? [])
    if (a.filename === csv && isSpooled(a.content)) void removeSpooled(a.content).catch(() => {});
  const filed = everyRow.length > shown.length;
  if (filed)
    attachments.push({
      filename: csv,
      title: source.title,
      contentType: "text/csv",
      content: toCsv(source.columns, oneUnitPerColumn(source.columns, everyRow)),
    });
  const blocks = msg.blocks.map((b, i) => (i === index ? table : b));
  const note = said.length ? ` — ${said.join(", ")}` : "";
  const header = blocks.findIndex((b) => b.type === "header");
  const head = blocks[header];
  if (head?.type === "header") blocks[header] = { type: "header", text: `${head.text}${note}` };
  const { attachments: _old, ...rest } = msg;
  return {
    ...rest,
    text: `${msg.text}${note}`,
    blocks: filed ? blocks : blocks.filter((b) => !attachedNote(b)),
    ...(attachments.length ? { attachments } : {}),
  };
}

/** The "attached as CSV" line of a long list, dropped when the filtered rows fit in the message. */
function attachedNote(b: Block): boolean {
  return b.type === "context" && /attached (as )?CSV/i.test(b.text.markup);
}

/**
 * The view a command line asks for, taken before its arguments are validated: a --sort the command's own
 * schema refuses (a computed column such as used%) and a --limit that must count filtered, sorted or merged
 * rows are left to the view instead of being sent to the array.
 */
export function takeListView(
  cmd: { args: { shape: Record<string, unknown> }; impact?: unknown },
  bound: {
    raw: Record<string, unknown>;
    array?: string;
    view: { where?: string; sort?: string; limit?: string };
  },
  multiArray: boolean,
): ListView | undefined {
  const shape = cmd.args.shape as Record<string, { safeParse(v: unknown): { success: boolean } } | undefined>;
  const typedSort = typeof bound.raw["sort"] === "string" ? (bound.raw["sort"] as string) : undefined;
  const sort = bound.view.sort ?? typedSort;
  const commandSorts = typedSort !== undefined && shape["sort"]?.safeParse(typedSort).success === true;
  if (typedSort !== undefined && !commandSorts) delete bound.raw["sort"];
  // No column is named after an Object member: refuse before anything is read from the array.
  const word = sort?.replace(/-$/, "");
  if (word !== undefined && (word in Object.prototype || word === "__proto__"))
    throw new UserFacingError(
      "LIST_UNKNOWN_COLUMN",
      `--sort: this list has no column \`${userText(word)}\`.`,
    );
  const limitText =
    bound.view.limit ?? (typeof bound.raw["limit"] === "string" ? bound.raw["limit"] : undefined);
  const where = bound.view.where;
  if (
    where === undefined &&
    bound.view.sort === undefined &&
    bound.view.limit === undefined &&
    commandSorts &&
    !multiArray
  )
    return undefined;
  if (where === undefined && sort === undefined && limitText === undefined) return undefined;
  if (cmd.impact && (where !== undefined || bound.view.sort !== undefined || bound.view.limit !== undefined))
    throw new UserFacingError(
      "LIST_NOT_A_LIST",
      "--where, --sort and --limit shape lists; this command changes something.",
    );
  let limit: number | undefined;
  if (limitText !== undefined) {
    limit = Number(limitText);
    if (!/^\d+$/.test(limitText.trim()) || limit < 1)
      throw new UserFacingError(
        "LIST_BAD_LIMIT",
        `--limit: \`${userText(limitText)}\` is not a whole number of rows (1 or more).`,
      );
    // The array's own limit would count rows before the filter, a sort it cannot do, or one array's rows only.
    if ((where !== undefined || (sort !== undefined && !commandSorts) || multiArray) && "limit" in bound.raw)
      delete bound.raw["limit"];
  }
  return {
    ...(where === undefined ? {} : { where }),
    ...(sort === undefined ? {} : { sort }),
    ...(limit === undefined ? {} : { limit }),
    commandSorts,
  };
}
