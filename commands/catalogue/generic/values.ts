/** Reading and showing array values for the catalogue: dotted paths, units, status and expiry marks. */
import { markAfter, markBefore } from "../../../src/core/presentation/cell-marks.js";
import { formatTimestamp } from "../../../src/core/presentation/format-time.js";
import type { RawValue, TableColumn } from "../../../src/core/presentation/message.js";
import {
  formatBytes,
  formatCount,
  formatDuration,
  formatLatencyMs,
  formatPercent,
} from "../../../src/core/words/units.js";
import { REDACTED, redactUrlValue } from "../../../src/redact.js";
import { isSecretColumn, isSecretKey } from "../../../src/rest-spec/secrets.js";
import type { Unit } from "../spec.js";

export type Item = Record<string, unknown>;

const DAY = 86_400_000;
/** Certificates closer than this to their end are called out. */
export const EXPIRY_WARNING_MS = 30 * DAY;
/** …and those closer than this are marked, to plan the renewal. */
export const EXPIRY_NOTICE_MS = 90 * DAY;
/** Field names that hold a time in epoch milliseconds (REST 1.x: created, time, *_time, …_opened, …_expires). */
const TIME_FIELD =
  /^(created|updated|time|destroyed_time|.*_time|.*_opened|.*_expires|expires|valid_from|valid_to|started|completed|last_.*)$/;
const HEALTHY = new Set(["healthy", "ok", "connected", "enabled", "running", "success", "completed", "true"]);

/**
 * The value at a dotted path; "a.x|b.x" takes the first that is present (fields renamed between versions,
 * e.g. replication's `async` (1.x) is `periodic` in 2.x).
 */
export function valueAt(item: Item, path: string): unknown {
  return readerOf(path)(item);
}

/**
 * Per-path facts asked once per cell, remembered: a 31-row table asks each of them 31 times per column, and
 * splitting and matching the path every time was a fair part of a catalogue list's own cost (issue 27). Paths
 * are the catalogue's columns and the ones people name; the bound keeps odd input from growing the maps.
 */
function remembered<T>(compute: (path: string) => T): (path: string) => T {
  const memo = new Map<string, T>();
  return (path) => {
    let v = memo.get(path);
    if (v === undefined && !memo.has(path)) {
      if (memo.size >= 4096) memo.clear();
      v = compute(path);
      memo.set(path, v);
    }
    return v as T;
  };
}

/**
 * A path's alternatives, each as its steps: "valid_to:days" reads `valid_to` (a second column computed from the
 * same field, its unit says how); "a.x|b.x" takes the first present.
 */
const stepsOf = remembered((path: string): string[][] => {
  const colon = path.indexOf(":");
  const field = colon === -1 ? path : path.slice(0, colon);
  return field.split("|").map((alt) => alt.split("."));
});

/**
 * How to read a path's value from an item, compiled once per path: a table asks it for every row, and a plain
 * field (most columns) is then one property read instead of a walk over its steps.
 */
export const readerOf = remembered((path: string): ((item: Item) => unknown) => {
  const alts = stepsOf(path);
  const only = alts.length === 1 ? (alts[0] as readonly string[]) : undefined;
  if (only?.length === 1) {
    const key = only[0] as string;
    return (item) => (item === null || typeof item !== "object" ? undefined : item[key]);
  }
  return (item) => {
    for (let a = 0; a < alts.length; a++) {
      const steps = alts[a] as readonly string[];
      let v: unknown = item;
      for (let i = 0; i < steps.length && v !== undefined; i++) {
        v = v === null || typeof v !== "object" ? undefined : (v as Item)[steps[i] as string];
      }
      if (v !== undefined || a === alts.length - 1) return v;
    }
    return undefined;
  };
});

/** The path's last key names a time in epoch milliseconds. */
const isTimePath = remembered((path: string) => TIME_FIELD.test(path.split(".").at(-1) ?? ""));

/** "remote.name" → "Remote name"; "valid_to" → "Valid to". */
export const labelOf = remembered((path: string): string => {
  const words = path
    .replace(/:.*$/, "")
    .replace(/\.name$/, "")
    .replace(/[._]/g, " ")
    // A latency is shown in ms (impliedUnit), so its label does not say µs.
    .replace(/\busec per\b/, "latency per");
  return words.charAt(0).toUpperCase() + words.slice(1);
});

function asNumber(v: unknown): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v === "string" && /^\d+$/.test(v)) return Number(v);
  return undefined;
}

/** What a cell's text may depend on besides its value. */
export interface CellContext {
  now: number;
  timeZone: string;
}

type Format = (v: unknown, ctx: CellContext) => string;

/** A cell: plain text, secrets hidden, units applied. `now` decides expiry marks. */
export function formatValue(path: string, v: unknown, unit: Unit | undefined, ctx: CellContext): string {
  return formatterOf(path, unit)(v, ctx);
}

/**
 * `formatValue` for one column, compiled once per path and unit: whether the column is secret, whether it names
 * a time and which unit applies are settled here instead of in every cell (issue 27: a list's own cost over its
 * raw GET). Tables call it once per column and the result once per cell.
 */
export function formatterOf(path: string, unit: Unit | undefined): Format {
  let byPath = FORMATTERS.get(unit);
  if (byPath === undefined) {
    byPath = remembered((p: string) => compileFormat(p, unit));
    FORMATTERS.set(unit, byPath);
  }
  return byPath(path);
}
const FORMATTERS = new Map<Unit | undefined, (path: string) => Format>();

/**
 * The unit a REST field's name implies when the catalogue gives none: `usec_per_*` is a latency in µs and
 * `*_per_sec` (but bytes) a rate, so every performance view shows latency in ms and counts with separators,
 * as the hand-written ones do, without each entry having to say so.
 */
export function impliedUnit(path: string): Unit | undefined {
  const first = path.split("|")[0] ?? path;
  const key = first.split(".").pop() ?? "";
  if (/^usec_per_/.test(key)) return "usec";
  if (/_per_sec$/.test(key) && !/bytes_per_sec$/.test(key)) return "rate";
  // Space figures (`space.unique`, a transfer's `data_transferred`) are bytes; `*_speed` a link's bits per second.
  if (/^space\./.test(first) && key !== "data_reduction") return "size";
  if (/^(data_transferred|physical_bytes_written|raw_capacity|capacity)$/.test(key)) return "size";
  if (/_speed$/.test(key)) return "bitrate";
  if (key === "progress") return "percent";
  if (/(^|_)count$/.test(key)) return "rate";
  return undefined;
}

function compileFormat(path: string, unit: Unit | undefined): Format {
  const shown = unitFormat(unit ?? impliedUnit(path)) ?? plainFormat(isTimePath(path));
  // A column path ("v2c.community", "api_token.token"): secret when any of its keys is, as the one redaction rules.
  if (isSecretColumn(path)) return (v) => (v === undefined || v === null || v === "" ? "–" : REDACTED);
  return (v, ctx) => (v === undefined || v === null || v === "" ? "–" : shown(v, ctx));
}

/** A value that is not empty, shown in `unit`; undefined for no unit (or one this list does not know). */
function unitFormat(unit: Unit | undefined): Format | undefined {
  switch (unit) {
    case "size":
      return (v) => numeric(v, formatBytes);
    case "ms":
      return (v) => numeric(v, formatDuration);
    case "s":
      return (v) => numeric(v, (n) => formatDuration(n * 1000));
    case "percent":
      return (v) => numeric(v, formatPercent);
    case "timestamp":
      return (v, ctx) => {
        const n = asNumber(v);
        return n === undefined || n === 0 ? String(v) : formatTimestamp(n, ctx.timeZone);
      };
    case "expiry":
      return (v, ctx) => {
        const n = asNumber(v);
        if (n === undefined || n === 0) return String(v);
        const left = n - ctx.now;
        const when = formatTimestamp(n, ctx.timeZone);
        if (left < 0) return markAfter(when, "⚠", "expired");
        return left < EXPIRY_WARNING_MS ? markAfter(when, "⚠", `in ${formatDuration(left)}`) : when;
      };
    case "days-left":
      return (v, ctx) => {
        const n = asNumber(v);
        if (n === undefined || n === 0) return String(v);
        // Whole days, rounded down: "0" is the last day. Numbers first, so --where "days left < 30" reads them.
        const days = Math.floor((n - ctx.now) / DAY);
        const left = n - ctx.now;
        if (left < 0) return markAfter(String(days), "✗", "expired");
        if (left < EXPIRY_WARNING_MS) return markAfter(String(days), "⚠", "under 30");
        return left < EXPIRY_NOTICE_MS ? markAfter(String(days), "⚠", "under 90") : String(days);
      };
    case "status":
      return (v) => markBefore(HEALTHY.has(String(v).toLowerCase()) ? "✓" : "✗", String(v));
    case "usec":
      return (v) => numeric(v, (n) => formatLatencyMs(n / 1000));
    case "bitrate":
      return (v) => numeric(v, formatBitrate);
    case "rate":
      return (v) => numeric(v, (n) => formatCount(n >= 10 ? Math.round(n) : Math.round(n * 10) / 10));
    default:
      return undefined;
  }
}

/** 40_000_000_000 → "40 Gb/s": link speeds in decimal bits, as ports are sold. */
function formatBitrate(bps: number): string {
  const units = ["b/s", "Kb/s", "Mb/s", "Gb/s", "Tb/s"];
  let i = 0;
  let v = bps;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[i]}`;
}

function numeric(v: unknown, show: (n: number) => string): string {
  const n = asNumber(v);
  return n === undefined ? String(v) : show(n);
}

/** A value that is not empty, in a column with no unit; `timePath` when the column's last key names a time. */
function plainFormat(timePath: boolean): Format {
  return (v, ctx) => {
    // A time the catalogue gave no unit for is still a time: never raw epoch milliseconds.
    if (timePath) {
      const n = asNumber(v);
      if (n !== undefined && n > 1e11 && n < 1e14) return formatTimestamp(n, ctx.timeZone);
    }
    // A URL cell (a proxy) shows its credentials as `user:***@`.
    if (typeof v === "string") return redactUrlValue(v);
    if (typeof v === "boolean") return v ? "yes" : "no";
    if (Array.isArray(v))
      return v.map((x) => (x && typeof x === "object" ? nameOf(x as Item) : String(x))).join(", ") || "–";
    if (typeof v === "object") return nameOf(v as Item);
    return String(v);
  };
}

/**
 * A cell's value as the array holds it, for faces that carry data: a secret column's withheld as its cell is,
 * times as ISO 8601, references by name, URLs without their credentials; sizes and counts stay numbers.
 */
export function rawValueOf(path: string, unit: Unit | undefined, v: unknown): RawValue {
  if (isSecretColumn(path)) return v === undefined || v === null || v === "" ? null : REDACTED;
  if (v === undefined || v === null) return null;
  const n = asNumber(v);
  const time = unit === "timestamp" || unit === "expiry" || unit === "days-left";
  if (n !== undefined && (time ? n > 0 : unit === undefined && isTimePath(path) && n > 1e11 && n < 1e14))
    return new Date(n).toISOString();
  if (typeof v === "string") return redactUrlValue(v);
  if (typeof v === "number" || typeof v === "boolean") return v;
  if (Array.isArray(v)) return v.map((x) => (x && typeof x === "object" ? nameOf(x as Item) : String(x)));
  if (typeof v === "object") return nameOf(v as Item);
  return String(v);
}

/** A table column with its reader and formatter. */
export interface Cell {
  key: string;
  read: (item: Item) => unknown;
  format: Format;
}
type Units = Readonly<Record<string, Unit>> | undefined;
const CELLS = new WeakMap<readonly string[], { units: Units; cells: readonly Cell[] }>();

/**
 * Each column with its reader and formatter. With `remember`, the columns are a catalogue entry's own list (the
 * same array every time) and are settled once for it and its units rather than once per table.
 */
export function cellsOf(columns: readonly string[], units: Units, remember: boolean): readonly Cell[] {
  const known = remember ? CELLS.get(columns) : undefined;
  if (known && known.units === units) return known.cells;
  const cells = columns.map((c) => ({ key: c, read: readerOf(c), format: formatterOf(c, units?.[c]) }));
  if (remember) CELLS.set(columns, { units, cells });
  return cells;
}

/** An array's internal field (`_as_of`): bookkeeping of the REST layer, never an answer to show. */
const internal = (k: string) => k.startsWith("_");

function nameOf(o: Item): string {
  if (typeof o["name"] === "string") return o["name"];
  const parts = Object.entries(o)
    .filter(([k, x]) => x !== null && typeof x !== "object" && !isSecretKey(k) && !internal(k))
    .map(([k, x]) => `${k}=${String(x)}`);
  if (parts.length) return parts.join(" ");
  // An object wrapping one reference (a realm's default `{server: {name}}`) reads as the name it wraps.
  const inner = Object.values(o).filter((x) => x && typeof x === "object");
  return inner.length === 1 ? nameOf(inner[0] as Item) : "–";
}

/** A column's label from its path ("a.x|b.x" by its first alternative), remembered per path as its cells are. */
const columnLabel = remembered((path: string) => labelOf(path.split("|")[0] ?? path));

export function columnsOf(
  paths: readonly string[],
  withArray: boolean,
  labels: Readonly<Record<string, string>> = {},
  arrayKey = "_array",
): TableColumn[] {
  const cols = paths.map((p) => ({ key: p, label: labels[p] ?? columnLabel(p) }));
  return withArray ? [{ key: arrayKey, label: "Array" }, ...cols] : cols;
}

/** Scalar fields of an item, in order, for `show` when the catalogue names none; internal ones left out. */
export function fieldsOf(item: Item): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(item)) {
    // undefined is a field the client set aside (a 2.x item's `context`): absent, as JSON has it.
    if (internal(k) || v === undefined) continue;
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      const inner = v as Item;
      if ("name" in inner) out.push(k);
      else for (const sub of Object.keys(inner).filter((x) => !internal(x))) out.push(`${k}.${sub}`);
    } else out.push(k);
  }
  return out;
}
