/**
 * CSV for long listings (RFC 4180 quoting). Cells that a spreadsheet would run as a formula are prefixed
 * with a quote: array object names are user-chosen and a CSV is opened in Excel more often than not.
 */
import type { TableColumn } from "../core/message.js";

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;

export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(columns: readonly TableColumn[], rows: readonly Record<string, string>[]): string {
  const lines = [columns.map((c) => csvCell(c.label)).join(",")];
  for (const row of rows) lines.push(columns.map((c) => csvCell(row[c.key] ?? "")).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
