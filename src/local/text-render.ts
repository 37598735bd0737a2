/**
 * The console's renderer: a neutral Message as terminal text. Rich markup loses its markers (or becomes bold
 * on a colour terminal), entities are decoded (the console shows text, it does not interpret it), tables are
 * aligned, and buttons are numbered so a person can answer "1".
 */
import {
  type Attachment,
  type Block,
  type Button,
  type Message,
  singleLine,
  singleLineRows,
  type TableColumn,
  unescapeText,
  visibleControls,
} from "../core/presentation/message.js";
import { formatCount } from "../core/words/units.js";

export interface RenderOptions {
  /** ANSI bold and dim; off for pipes and tests. */
  color?: boolean;
  /** Number of the first button in this message. */
  firstButton?: number;
  /** What to say about an attachment (the console saves it and says where). */
  describeAttachment?: (filename: string) => string;
  /** What to say about an image block's file (the console saves it and says where). */
  describeImage?: (file: Attachment) => string;
}

export interface RenderedText {
  text: string;
  /** Buttons in the order they are numbered. */
  buttons: Button[];
}

const MAX_CELL = 48;

function markup(m: string, color: boolean): string {
  const bold = color ? "\u001b[1m$1\u001b[22m" : "$1";
  // Markers only count in pairs that hug text, as in Slack's mrkdwn.
  const out = m.replace(/\*([^*\n]+)\*/g, bold).replace(/(^|\s)_([^_\n]+)_(?=\s|$|[.,;:])/g, "$1$2");
  return unescapeText(out);
}

function dim(s: string, color: boolean): string {
  return color ? `\u001b[2m${s}\u001b[22m` : s;
}

export function formatTable(
  columns: readonly TableColumn[],
  cells: readonly Record<string, string>[],
): string {
  // One line per cell: a name holding a line break or an escape sequence cannot forge a row or colour the terminal.
  const rows = singleLineRows(cells);
  const clip = (s: string) => (s.length > MAX_CELL ? `${s.slice(0, MAX_CELL - 1)}…` : s);
  const widths = columns.map((c) =>
    Math.max(c.label.length, ...rows.map((r) => clip(r[c.key] ?? "").length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((v, i) => (columns[i]?.align === "right" ? v.padStart(widths[i] ?? 0) : v.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [
    line(columns.map((c) => c.label)),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map((r) => line(columns.map((c) => clip(r[c.key] ?? "")))),
  ].join("\n");
}

function block(
  b: Block,
  opts: Required<Omit<RenderOptions, "describeAttachment" | "describeImage">> &
    Pick<RenderOptions, "describeImage">,
  buttons: Button[],
): string {
  const color = opts.color;
  switch (b.type) {
    case "header":
      return color ? `\u001b[1m${singleLine(b.text)}\u001b[22m` : `== ${singleLine(b.text)} ==`;
    case "section":
      return markup(b.text.markup, color);
    case "context":
      return dim(markup(b.text.markup, color), color);
    case "fields": {
      const width = Math.max(...b.fields.map((f) => f.label.length));
      return b.fields
        .map((f) => `${`${f.label}:`.padEnd(width + 1)} ${markup(f.value.markup, color)}`)
        .join("\n");
    }
    case "table": {
      const grid = formatTable(b.columns, b.rows);
      const total = b.totalRows ?? b.rows.length;
      return total > b.rows.length
        ? `${grid}\n${dim(`(showing ${formatCount(b.rows.length)} of ${formatCount(total)})`, color)}`
        : grid;
    }
    case "code":
      return b.text
        .split("\n")
        .map((l) => `    ${l}`)
        .join("\n");
    case "divider":
      return "----";
    case "image":
      return opts.describeImage ? opts.describeImage(b.file) : `[image: ${b.title}]`;
    case "actions":
      return b.buttons
        .map((btn) => {
          buttons.push(btn);
          return `[${opts.firstButton + buttons.length - 1}] ${singleLine(btn.label)}`;
        })
        .join("   ");
  }
}

export function renderText(msg: Message, opts: RenderOptions = {}): RenderedText {
  const buttons: Button[] = [];
  const o = {
    color: opts.color ?? false,
    firstButton: opts.firstButton ?? 1,
    ...(opts.describeImage ? { describeImage: opts.describeImage } : {}),
  };
  const parts =
    msg.blocks.length > 0 ? msg.blocks.map((b) => block(b, o, buttons)) : [visibleControls(msg.text)];
  for (const a of msg.attachments ?? []) {
    parts.push(dim(opts.describeAttachment?.(a.filename) ?? `[attachment: ${a.filename}]`, o.color));
  }
  return { text: parts.filter((p) => p !== "").join("\n"), buttons };
}
