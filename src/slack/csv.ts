/**
 * CSV for long listings (RFC 4180 quoting), with the one cell rule every CSV the bot writes follows
 * (src/core/table.ts csvCell: formula-looking cells prefixed with an apostrophe, plain numbers kept).
 */
import type { TableColumn } from "../core/message.js";
import { csvCell } from "../core/table.js";

export { csvCell };

export function toCsv(columns: readonly TableColumn[], rows: readonly Record<string, string>[]): string {
  const lines = [columns.map((c) => csvCell(c.label)).join(",")];
  for (const row of rows) lines.push(columns.map((c) => csvCell(row[c.key] ?? "")).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
