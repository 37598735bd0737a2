/**
 * One unit per column (issue 43): a column of sizes ("Used", "Read bytes per sec") is written in one unit, so a
 * glance down it compares magnitudes ("1014 GiB" above "3.13 TiB" reads as the larger; "0.99 TiB" does not).
 *
 * The rule: the unit of the column's largest value. It is the unit a reader scans for (the big ones are the
 * ones that matter at 3 a.m.), and a column's top figure keeps the three significant digits every size has.
 * A value much smaller than that unit keeps two significant digits ("0.0024 GiB" for 2.41 MiB) rather than
 * rounding to a 0 that would read as empty. Cells are read as shown (marks kept, `cellValue`), so the pass
 * runs on any table, and what they say stays a size `--where`, `--sort` and Slack's numeric columns read.
 */

import { formatCount } from "../words/units.js";
import { cellValue } from "./cell-marks.js";
import type { TableColumn } from "./message.js";

const LABELS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"] as const;
/** A size as formatBytes writes it, maybe per second or per day: "1.5 TiB", "-3 GiB", "724 MiB/s", "12 B". */
const SIZE_CELL = /^(-?[\d,]*\.?\d+) (B|KiB|MiB|GiB|TiB|PiB|EiB)(\/s|\/day)?$/;
/** Cells that stand for no size and leave a hole in the column, as an empty cell does. */
const HOLE = /^(|–|-|—|\?|n\/a|unlimited|none|never|off|unknown)$/i;

interface Parsed {
  value: string;
  bytes: number;
  unit: number;
  per: string;
}

function parse(cell: string): Parsed | undefined {
  const value = cellValue(cell).trim();
  const m = SIZE_CELL.exec(value);
  if (!m) return undefined;
  const unit = LABELS.indexOf((m[2] ?? "B") as (typeof LABELS)[number]);
  return { value, bytes: Number((m[1] ?? "").replace(/,/g, "")) * 1024 ** unit, unit, per: m[3] ?? "" };
}

function trimZeros(s: string): string {
  return s.includes(".") ? s.replace(/\.?0+$/, "") : s;
}

/** The unit formatBytes writes `bytes` in, as a power of 1024: a column's unit from its largest value. */
export function unitOf(bytes: number): number {
  let i = 0;
  for (let v = Math.abs(bytes); v >= 1024 && i < LABELS.length - 1; v /= 1024) i++;
  return i;
}

/** `bytes` in unit `i` (a power of 1024): three significant digits from 1 up, two below, whole bytes in B. */
export function sizeIn(bytes: number, i: number): string {
  const sign = bytes < 0 ? "-" : "";
  const abs = Math.abs(bytes);
  if (i === 0) return `${sign}${formatCount(Math.round(abs))} B`;
  const v = abs / 1024 ** i;
  const digits = v === 0 ? 0 : v >= 100 ? 0 : v >= 10 ? 1 : v >= 1 ? 2 : 1 - Math.floor(Math.log10(v));
  return `${sign}${trimZeros(v.toFixed(digits))} ${LABELS[i] ?? "B"}`;
}

/** The rows with every column of sizes written in the unit of its largest value; other columns as they were. */
export function oneUnitPerColumn(
  columns: readonly TableColumn[],
  rows: readonly Record<string, string>[],
): Record<string, string>[] {
  let out: Record<string, string>[] | undefined;
  for (const c of columns) {
    const parsed: (Parsed | undefined)[] = [];
    let ok = true;
    for (const r of rows) {
      const cell = r[c.key] ?? "";
      const p = parse(cell);
      if (!p && !HOLE.test(cellValue(cell).trim())) {
        ok = false;
        break;
      }
      parsed.push(p);
    }
    const sizes = parsed.filter((p): p is Parsed => p !== undefined);
    // A column of text, of one size, or already in one unit and one rate is left alone.
    if (!ok || sizes.length < 2 || new Set(sizes.map((p) => p.per)).size > 1) continue;
    const largest = sizes.reduce((a, p) => (Math.abs(p.bytes) > Math.abs(a.bytes) ? p : a));
    if (sizes.every((p) => p.unit === largest.unit)) continue;
    out ??= rows.map((r) => ({ ...r }));
    out.forEach((r, i) => {
      const p = parsed[i];
      if (p) r[c.key] = (r[c.key] ?? "").replace(p.value, `${sizeIn(p.bytes, largest.unit)}${p.per}`);
    });
  }
  return out ?? [...rows];
}
