/** Reading and showing array values for the catalogue: dotted paths, units, status and expiry marks. */
import { formatTimestamp } from "../../../src/core/format-time.js";
import type { TableColumn } from "../../../src/core/message.js";
import { formatBytes, formatDuration, formatPercent } from "../../../src/core/units.js";
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
const HEALTHY = new Set(["healthy", "ok", "connected", "enabled", "running", "success", "true"]);

/**
 * The value at a dotted path; "a.x|b.x" takes the first that is present (fields renamed between versions,
 * e.g. replication's `async` became `periodic` in 1.12).
 */
export function valueAt(item: Item, path: string): unknown {
  const alts = stepsOf(path);
  for (let a = 0; a < alts.length; a++) {
    const steps = alts[a] as readonly string[];
    let v: unknown = item;
    for (let i = 0; i < steps.length && v !== undefined; i++) {
      v = v === null || typeof v !== "object" ? undefined : (v as Item)[steps[i] as string];
    }
    if (v !== undefined || a === alts.length - 1) return v;
  }
  return undefined;
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

/** The path's last key names a time in epoch milliseconds. */
const isTimePath = remembered((path: string) => TIME_FIELD.test(path.split(".").at(-1) ?? ""));

/** "remote.name" → "Remote name"; "valid_to" → "Valid to". */
export const labelOf = remembered((path: string): string => {
  const words = path
    .replace(/:.*$/, "")
    .replace(/\.name$/, "")
    .replace(/[._]/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
});

function asNumber(v: unknown): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v === "string" && /^\d+$/.test(v)) return Number(v);
  return undefined;
}

/** A cell: plain text, secrets hidden, units applied. `now` decides expiry marks. */
export function formatValue(
  path: string,
  v: unknown,
  unit: Unit | undefined,
  ctx: { now: number; timeZone: string },
): string {
  // A column path ("v2c.community", "api_token.token"): secret when any of its keys is, as the one redaction rules.
  if (isSecretColumn(path) && v !== undefined && v !== null && v !== "") return REDACTED;
  if (v === undefined || v === null || v === "") return "–";
  const n = asNumber(v);
  switch (unit) {
    case "size":
      return n === undefined ? String(v) : formatBytes(n);
    case "ms":
      return n === undefined ? String(v) : formatDuration(n);
    case "s":
      return n === undefined ? String(v) : formatDuration(n * 1000);
    case "percent":
      return n === undefined ? String(v) : formatPercent(n);
    case "timestamp":
      return n === undefined || n === 0 ? String(v) : formatTimestamp(n, ctx.timeZone);
    case "expiry": {
      if (n === undefined || n === 0) return String(v);
      const left = n - ctx.now;
      const when = formatTimestamp(n, ctx.timeZone);
      if (left < 0) return `${when} ⚠ expired`;
      return left < EXPIRY_WARNING_MS ? `${when} ⚠ in ${formatDuration(left)}` : when;
    }
    case "days-left": {
      if (n === undefined || n === 0) return String(v);
      // Whole days, rounded down: "0" is the last day. Numbers first, so --where "days left < 30" reads them.
      const days = Math.floor((n - ctx.now) / DAY);
      const left = n - ctx.now;
      if (left < 0) return `${days} ✗ expired`;
      if (left < EXPIRY_WARNING_MS) return `${days} ⚠ under 30`;
      return left < EXPIRY_NOTICE_MS ? `${days} ⚠ under 90` : String(days);
    }
    case "status":
      return HEALTHY.has(String(v).toLowerCase()) ? `✓ ${String(v)}` : `✗ ${String(v)}`;
  }
  // A time the catalogue gave no unit for is still a time: never raw epoch milliseconds.
  if (n !== undefined && n > 1e11 && n < 1e14 && isTimePath(path)) return formatTimestamp(n, ctx.timeZone);
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (Array.isArray(v))
    return v.map((x) => (x && typeof x === "object" ? nameOf(x as Item) : String(x))).join(", ") || "–";
  if (typeof v === "object") return nameOf(v as Item);
  // A URL cell (a proxy) shows its credentials as `user:***@`.
  return typeof v === "string" ? redactUrlValue(v) : String(v);
}

/** An array's internal field (`_as_of`): bookkeeping of the REST layer, never an answer to show. */
const internal = (k: string) => k.startsWith("_");

function nameOf(o: Item): string {
  if (typeof o["name"] === "string") return o["name"];
  const parts = Object.entries(o)
    .filter(([k, x]) => x !== null && typeof x !== "object" && !isSecretKey(k) && !internal(k))
    .map(([k, x]) => `${k}=${String(x)}`);
  return parts.join(" ") || "–";
}

export function columnsOf(
  paths: readonly string[],
  withArray: boolean,
  labels: Readonly<Record<string, string>> = {},
): TableColumn[] {
  const cols = paths.map((p) => ({ key: p, label: labels[p] ?? labelOf(p.split("|")[0] ?? p) }));
  return withArray ? [{ key: "_array", label: "Array" }, ...cols] : cols;
}

/** Scalar fields of an item, in order, for `show` when the catalogue names none; internal ones left out. */
export function fieldsOf(item: Item): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(item)) {
    if (internal(k)) continue;
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      const inner = v as Item;
      if ("name" in inner) out.push(k);
      else for (const sub of Object.keys(inner).filter((x) => !internal(x))) out.push(`${k}.${sub}`);
    } else out.push(k);
  }
  return out;
}
