/**
 * One model block → Slack Block Kit blocks, each within Slack's per-block limits. Budgets across the whole
 * message (block count, total size) are applied by `toSlack` in blocks.ts.
 */

import { columnNumbers } from "../core/presentation/list-view.js";
import type { Attachment, Block, Button, TableColumn, TypedAnswer } from "../core/presentation/message.js";
import { escapeText, rich, singleLine, singleLineRows } from "../core/presentation/message.js";
import { toCsv } from "../core/presentation/table.js";
import { formatCount } from "../core/words/units.js";
import { InternalError } from "../errors.js";
import { dataVisualization } from "./chart-block.js";
import { LIMITS, splitText, truncate } from "./limits.js";
import { formatGrid } from "./plain-text.js";

export interface SlackBlock {
  type: string;
  [key: string]: unknown;
}

export type Surface = "message" | "home" | "modal";

/** A file to upload with the message (a CSV of a long listing, a chart). */
export interface OutgoingFile extends Attachment {
  altText?: string;
}

/** A unit the budget keeps or drops as a whole; `essential` pieces (buttons) are always kept. */
export interface Piece {
  blocks: SlackBlock[];
  chars: number;
  essential: boolean;
}

/** How lists and charts show in messages: data table or plain table; charts Slack draws or PNG files. */
export interface TableStyle {
  kind: "data_table" | "table";
  pageSize: number;
  /** Charts Slack draws (data_visualization), or the PNG for workspaces without the block. */
  charts?: "native" | "png";
}

export const DEFAULT_TABLE_STYLE: TableStyle = { kind: "data_table", pageSize: 20 };

export interface RenderState {
  surface: Surface;
  tables: TableStyle;
  tableUsed: boolean;
  /** data_visualization blocks already in the message (at most LIMITS.chartsPerMessage). */
  charts: number;
  lastHeader: string;
  files: OutgoingFile[];
  actionIds: Set<string>;
}

/** Rows shown in a table block at most, for its visible text; the rest go to the CSV. */
const TABLE_TEXT_BUDGET = 7_000;
/** Separates a duplicate action id's disambiguating suffix; stripped again when a click arrives. */
const ACTION_SUFFIX = /~\d+$/;

const plainText = (text: string) => ({ type: "plain_text", text, emoji: true });
const mrkdwn = (text: string) => ({ type: "mrkdwn", text, verbatim: true });

export function baseActionId(actionId: string): string {
  return actionId.replace(ACTION_SUFFIX, "");
}

export function piece(blocks: SlackBlock[], chars: number, essential = false): Piece {
  return { blocks, chars, essential };
}

function context(markup: string): SlackBlock {
  return { type: "context", elements: [mrkdwn(truncate(markup, LIMITS.contextText))] };
}

function slug(s: string): string {
  const base = s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return base === "" ? "listing" : base;
}

function uniqueFilename(state: RenderState, stem: string, ext: string): string {
  const taken = new Set(state.files.map((f) => f.filename));
  let name = `${stem}.${ext}`;
  for (let i = 2; taken.has(name); i++) name = `${stem}-${i}.${ext}`;
  return name;
}

export function button(b: Button, state: RenderState): SlackBlock {
  if (b.value.length > LIMITS.buttonValue) {
    throw new InternalError("SLACK_BUTTON_VALUE_TOO_LONG", `button value is ${b.value.length} characters`, {
      details: { actionId: b.actionId },
    });
  }
  let actionId = b.actionId;
  for (let i = 2; state.actionIds.has(actionId); i++) actionId = `${b.actionId}~${i}`;
  if (actionId.length > LIMITS.actionId || b.actionId.length === 0) {
    throw new InternalError("SLACK_ACTION_ID_INVALID", `action id must be 1-${LIMITS.actionId} characters`);
  }
  state.actionIds.add(actionId);
  const out: SlackBlock = {
    type: "button",
    text: plainText(truncate(singleLine(b.label), LIMITS.buttonText)),
    action_id: actionId,
    value: b.value,
  };
  if (b.style !== undefined) out["style"] = b.style;
  if (b.url !== undefined && /^https:\/\//.test(b.url) && b.url.length <= 3000) out["url"] = b.url;
  if (b.confirm !== undefined) {
    out["confirm"] = {
      title: plainText(truncate(b.confirm.title, LIMITS.confirmTitle)),
      text: plainText(truncate(b.confirm.text, LIMITS.confirmText)),
      confirm: plainText(truncate(b.confirm.confirm, LIMITS.confirmButton)),
      deny: plainText(truncate(b.confirm.deny, LIMITS.confirmButton)),
      ...(b.style === "danger" ? { style: "danger" } : {}),
    };
  }
  return out;
}

/** Where a card's typed answer is read from in a click's `state.values` (listeners/interactions.ts). */
export const CARD_TYPED = { blockId: "card_typed", actionId: "typed_text" } as const;

/** The box a card's typed answer goes in: an input block, optional, so the buttons work with it empty. */
function typedInput(t: TypedAnswer): SlackBlock {
  return {
    type: "input",
    block_id: CARD_TYPED.blockId,
    optional: true,
    label: plainText(truncate(singleLine(t.label), LIMITS.inputLabel)),
    element: {
      type: "plain_text_input",
      action_id: CARD_TYPED.actionId,
      max_length: 255,
      placeholder: plainText(truncate(singleLine(t.placeholder), LIMITS.inputPlaceholder)),
    },
  };
}

function preformatted(text: string): SlackBlock {
  return {
    type: "rich_text",
    elements: [{ type: "rich_text_preformatted", elements: [{ type: "text", text }] }],
  };
}

function rowsFitting(columns: readonly TableColumn[], rows: readonly Record<string, string>[], max: number) {
  let chars = 0;
  let n = 0;
  for (const r of rows) {
    const rowChars = columns.reduce((sum, c) => sum + Math.max(1, (r[c.key] ?? "").length), 0);
    if (n >= max || chars + rowChars > TABLE_TEXT_BUDGET) break;
    chars += rowChars;
    n++;
  }
  return { n, chars };
}

function gridFitting(columns: readonly TableColumn[], rows: readonly Record<string, string>[]) {
  // Binary search for the most rows whose grid fits one preformatted block.
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (formatGrid(columns, rows.slice(0, mid)).length <= LIMITS.codeText) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Slack's data table: the header row as text, then each cell as `raw_number` where its whole column stands for
 * numbers (sizes, percentages, durations, counts), so sorting in the client orders `1.5 TiB` above `900 GiB`,
 * else as `raw_text`; a caption that says what the rows are; the configured page size.
 */
function dataTable(
  columns: readonly TableColumn[],
  rows: readonly Record<string, string>[],
  total: number,
  state: RenderState,
): SlackBlock {
  const numeric = columns.map((c) => columnNumbers(rows.map((r) => r[c.key] ?? "")));
  const text = (v: string) => ({ type: "raw_text", text: v === "" ? "-" : v });
  // The header says what and where ("11 file systems on fb-lab-01"); the count is added when it does not.
  const what = singleLine(state.lastHeader.trim());
  // One shared formatter: toLocaleString builds one per call (issue 27).
  const n = formatCount(total);
  const count = `${n} ${total === 1 ? "row" : "rows"}`;
  const caption =
    what === "" ? count : new RegExp(`(^|\\s)${n}\\s+\\p{L}`, "u").test(what) ? what : `${what} (${count})`;
  return {
    type: "data_table",
    caption: truncate(caption, LIMITS.headerText),
    page_size: Math.min(state.tables.pageSize, Math.max(1, rows.length)),
    rows: [
      columns.map((c) => text(c.label)),
      ...rows.map((r, i) =>
        columns.map((c, j) => {
          const value = numeric[j]?.[i];
          const shown = r[c.key] ?? "";
          return value === undefined ? text(shown) : { type: "raw_number", value, text: shown };
        }),
      ),
    ],
  };
}

function tablePieces(table: Extract<Block, { type: "table" }>, state: RenderState): Piece[] {
  // Cells are shown one line each; the CSV keeps them as they are (quoted).
  const b = { ...table, rows: singleLineRows(table.rows) };
  const total = Math.max(b.totalRows ?? b.rows.length, b.rows.length);
  const useTable =
    state.surface === "message" &&
    !state.tableUsed &&
    b.columns.length > 0 &&
    b.columns.length <= LIMITS.tableColumns;
  const blocks: SlackBlock[] = [];
  let shown: number;
  let chars: number;
  if (useTable) {
    state.tableUsed = true;
    // A data table takes a header and 100 rows; the plain table 100 rows with its header among them.
    const most = state.tables.kind === "data_table" ? LIMITS.tableRows : LIMITS.tableRows - 1;
    ({ n: shown, chars } = rowsFitting(b.columns, b.rows, most));
    const cellOf = (v: string) => ({ type: "raw_text", text: v === "" ? "-" : v });
    const rows = b.rows.slice(0, shown);
    // A data table needs a header and at least one row; an empty listing keeps the plain table.
    if (state.tables.kind === "data_table" && rows.length > 0)
      blocks.push(dataTable(b.columns, rows, total, state));
    else
      blocks.push({
        type: "table",
        column_settings: b.columns.map((c) => ({ align: c.align ?? "left", is_wrapped: false })),
        rows: [
          b.columns.map((c) => cellOf(c.label)),
          ...rows.map((r) => b.columns.map((c) => cellOf(r[c.key] ?? ""))),
        ],
      });
  } else {
    shown = gridFitting(b.columns, b.rows);
    const grid = formatGrid(b.columns, b.rows.slice(0, shown));
    chars = grid.length;
    blocks.push(preformatted(grid));
  }
  if (shown < total) {
    let note = `Showing ${formatCount(shown)} of ${formatCount(total)} rows.`;
    const existingCsv = state.files.find((f) => f.contentType === "text/csv");
    if (shown < b.rows.length && existingCsv === undefined) {
      const filename = uniqueFilename(state, slug(state.lastHeader), "csv");
      state.files.push({
        filename,
        title: state.lastHeader || "Full listing",
        contentType: "text/csv",
        content: toCsv(table.columns, table.rows),
      });
      note += ` The full list is attached as ${filename}.`;
    }
    blocks.push(context(escapeText(note)));
    chars += note.length;
  }
  return [piece(blocks, chars)];
}

export function renderBlock(b: Block, state: RenderState): Piece[] {
  switch (b.type) {
    case "header": {
      state.lastHeader = b.text;
      const text = truncate(singleLine(b.text.trim()), LIMITS.headerText);
      return text === "" ? [] : [piece([{ type: "header", text: plainText(text) }], text.length)];
    }
    case "section":
      return splitText(b.text.markup, LIMITS.sectionText).map((t) =>
        piece([{ type: "section", text: mrkdwn(t) }], t.length),
      );
    case "fields": {
      const out: Piece[] = [];
      for (let i = 0; i < b.fields.length; i += LIMITS.fieldsPerSection) {
        const texts = b.fields
          .slice(i, i + LIMITS.fieldsPerSection)
          .map((f) => truncate(`*${escapeText(f.label)}*\n${f.value.markup}`, LIMITS.fieldText));
        out.push(
          piece(
            [{ type: "section", fields: texts.map(mrkdwn) }],
            texts.reduce((s, t) => s + t.length, 0),
          ),
        );
      }
      return out;
    }
    case "table":
      return tablePieces(b, state);
    case "code":
      return splitText(b.text, LIMITS.codeText).map((t) => piece([preformatted(t)], t.length));
    case "context":
      return b.text.markup === ""
        ? []
        : [piece([context(b.text.markup)], Math.min(b.text.markup.length, LIMITS.contextText))];
    case "divider":
      return [piece([{ type: "divider" }], 0)];
    case "actions": {
      const out: Piece[] = b.typed ? [piece([typedInput(b.typed)], b.typed.label.length, true)] : [];
      for (let i = 0; i < b.buttons.length; i += LIMITS.elementsPerActions) {
        const elements = b.buttons.slice(i, i + LIMITS.elementsPerActions).map((x) => button(x, state));
        out.push(piece([{ type: "actions", elements }], 0, true));
      }
      return out;
    }
    case "image": {
      const charts = b.charts ?? [];
      // Slack draws the chart itself in a message, two at most; elsewhere (and past two) the PNG goes along.
      if (
        state.surface === "message" &&
        state.tables.charts !== "png" &&
        charts.length > 0 &&
        state.charts + charts.length <= LIMITS.chartsPerMessage
      ) {
        state.charts += charts.length;
        return charts.map((c) =>
          piece([dataVisualization(c), context(escapeText(c.summary))], c.title.length + c.summary.length),
        );
      }
      const filename = state.files.some((f) => f.filename === b.file.filename)
        ? uniqueFilename(state, b.file.filename.replace(/\.[^.]*$/, ""), "png")
        : b.file.filename;
      state.files.push({ ...b.file, filename, altText: b.altText });
      const markup = rich`:bar_chart: *${b.title}*, attached as ${filename}`.markup;
      return [piece([context(markup)], markup.length)];
    }
  }
}
