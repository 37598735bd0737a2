/**
 * A table cell may carry a mark beside its value: a state before it (`✓ healthy`, `🟢 ok`) or a warning after
 * it (`64 ⚠ under 90`, `2027-01-30 09:12 UTC ⚠ expired`). Cells are made through `markBefore` / `markAfter`
 * and read back through `cellValue`, so `--where "status != healthy"` compares `healthy`, not `✓ healthy`
 * (it used to compare the decoration and keep every row), and sorting and Slack's numeric columns see the
 * number a warning follows. One list of marks for both sides, so a new mark cannot be made without being read.
 */

/** Every mark a cell may carry; the list view reads a cell's value by them. */
export const CELL_MARKS = ["✓", "✗", "⚠", "🟢", "🟡", "🔴", "⏸️"] as const;
export type CellMark = (typeof CELL_MARKS)[number];

/** `✓ healthy`: a state's mark, then the value. */
export function markBefore(mark: CellMark, value: string): string {
  return `${mark} ${value}`;
}

/** `64 ⚠ under 90`: the value, then a mark and what it warns of. */
export function markAfter(value: string, mark: CellMark, note: string): string {
  return `${value} ${mark} ${note}`;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const ALTERNATIVES = CELL_MARKS.map(escapeRe).join("|");
const BEFORE = new RegExp(`^(?:${ALTERNATIVES})\\s+`, "u");
const AFTER = new RegExp(`\\s+(?:${ALTERNATIVES})(?:\\s.*)?$`, "u");

/** The value a cell shows, without its mark: what `--where` compares and `--sort` orders. */
export function cellValue(cell: string): string {
  return cell.replace(BEFORE, "").replace(AFTER, "");
}
