/**
 * A message as plain text: the content of `full-output.txt` when blocks had to be shortened, and the
 * monospace grid used where a table block cannot be (too wide, a second table, App Home).
 */
import {
  type Message,
  singleLine,
  singleLineRows,
  type TableColumn,
  unescapeText,
} from "../core/presentation/message.js";

const MAX_COLUMN_WIDTH = 40;

function cell(v: string, width: number, align: "left" | "right" | undefined): string {
  const s = v.length > width ? `${v.slice(0, width - 1)}…` : v;
  return align === "right" ? s.padStart(width) : s.padEnd(width);
}

/** Rows as an aligned monospace grid with a header line. */
export function formatGrid(
  columns: readonly TableColumn[],
  cells: readonly Record<string, string>[],
): string {
  const rows = singleLineRows(cells);
  const widths = columns.map((c) =>
    Math.min(MAX_COLUMN_WIDTH, Math.max(c.label.length, ...rows.map((r) => (r[c.key] ?? "").length))),
  );
  const line = (values: string[]) =>
    values
      .map((v, i) => cell(v, widths[i] ?? 0, columns[i]?.align))
      .join("  ")
      .trimEnd();
  return [
    line(columns.map((c) => c.label)),
    ...rows.map((r) => line(columns.map((c) => r[c.key] ?? ""))),
  ].join("\n");
}

export function messageToPlainText(msg: Message): string {
  const parts: string[] = [];
  for (const b of msg.blocks) {
    switch (b.type) {
      case "header":
        parts.push(singleLine(b.text).toUpperCase());
        break;
      case "section":
      case "context":
        parts.push(unescapeText(b.text.markup));
        break;
      case "fields":
        parts.push(b.fields.map((f) => `${f.label}: ${unescapeText(f.value.markup)}`).join("\n"));
        break;
      case "table": {
        const total = b.totalRows ?? b.rows.length;
        const note = total > b.rows.length ? `\n(${b.rows.length} of ${total} rows)` : "";
        parts.push(formatGrid(b.columns, b.rows) + note);
        break;
      }
      case "code":
        parts.push(b.text);
        break;
      case "image":
        parts.push(`[${b.title}: ${b.file.filename}]`);
        break;
      case "divider":
        parts.push("----");
        break;
      case "actions":
        break;
    }
  }
  return `${parts.join("\n\n")}\n`;
}
