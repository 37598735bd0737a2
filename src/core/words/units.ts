/**
 * Sizes and durations as people type and read them. Every size unit is binary (G = GiB = 2^30 bytes), because
 * that is what the array reports; help says so, so that "10GB" never silently means 10^10.
 */

const SIZE_UNITS: Record<string, number> = {
  "": 1,
  B: 1,
  K: 2 ** 10,
  M: 2 ** 20,
  G: 2 ** 30,
  T: 2 ** 40,
  P: 2 ** 50,
};

const SIZE_RE = /^(\d+(?:\.\d+)?|\.\d+)\s*([KMGTP]?)(I?B?)$/i;

/** Parses "500G", "1.5T", "2TiB", "10GB" or a byte count. Returns undefined when the text is not a size. */
export function parseSize(text: string): number | undefined {
  const m = SIZE_RE.exec(text.trim());
  if (!m) return undefined;
  const [, num = "", unit = "", suffix = ""] = m;
  // "5B" is bytes and "5iB" is nonsense; "5GiB", "5GB", "5G" are all GiB.
  if (unit === "" && suffix.toUpperCase() !== "B" && suffix !== "") return undefined;
  const factor = SIZE_UNITS[unit.toUpperCase()];
  if (factor === undefined) return undefined;
  const bytes = Math.round(Number(num) * factor);
  if (!Number.isSafeInteger(bytes)) return undefined;
  return bytes;
}

/** The largest size a number holds exactly (2^53 - 1 bytes), as the largest whole T people may type. */
export const LARGEST_SIZE_TEXT = `${Math.floor(Number.MAX_SAFE_INTEGER / 2 ** 40)}T`;

/** Text shaped like a size whose value no byte count can hold exactly ("99999999T"). */
export function sizeTooLarge(text: string): boolean {
  const m = SIZE_RE.exec(text.trim());
  const factor = SIZE_UNITS[(m?.[2] ?? "").toUpperCase()];
  return m !== null && factor !== undefined && !Number.isSafeInteger(Math.round(Number(m[1]) * factor));
}

/**
 * The unit that makes a unitless number nearest an existing size (`30` beside a 20 TiB file system → "T"); G
 * when there is nothing to be near.
 */
export function nearestUnit(n: number, current: number): string {
  if (!(current > 0) || !(n > 0)) return "G";
  let best = "G";
  let bestGap = Number.POSITIVE_INFINITY;
  for (const unit of ["M", "G", "T", "P"]) {
    const gap = Math.abs(Math.log(n * (SIZE_UNITS[unit] as number)) - Math.log(current));
    if (gap < bestGap) {
      best = unit;
      bestGap = gap;
    }
  }
  return best;
}

export { parseDuration } from "../../vocabulary.js";

const BYTE_LABELS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"] as const;

/** 1536 → "1.5 KiB"; three significant digits at most, binary units. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return "?";
  const sign = bytes < 0 ? "-" : "";
  let v = Math.abs(bytes);
  let i = 0;
  while (v >= 1024 && i < BYTE_LABELS.length - 1) {
    v /= 1024;
    i++;
  }
  const label = BYTE_LABELS[i] ?? "B";
  if (i === 0) return `${sign}${v} B`;
  const digits = v >= 100 ? 0 : v >= 10 ? 1 : 2;
  return `${sign}${trimZeros(v.toFixed(digits))} ${label}`;
}

/**
 * `bytes` in the unit `formatBytes(like)` picks: the figures of one column or one range ("3.13 TiB/day (0.99 TiB
 * to 3.2 TiB)") in one unit, never "3.13 TiB" beside "1014 GiB".
 */
export function formatBytesLike(bytes: number, like: number): string {
  if (!Number.isFinite(bytes) || !Number.isFinite(like)) return "?";
  let i = 0;
  for (let v = Math.abs(like); v >= 1024 && i < BYTE_LABELS.length - 1; v /= 1024) i++;
  if (i === 0) return `${bytes < 0 ? "-" : ""}${formatCount(Math.round(Math.abs(bytes)))} B`;
  const v = Math.abs(bytes) / 1024 ** i;
  const digits = v >= 100 ? 0 : v >= 10 ? 1 : 2;
  return `${bytes < 0 ? "-" : ""}${trimZeros(v.toFixed(digits))} ${BYTE_LABELS[i] ?? "B"}`;
}

function trimZeros(s: string): string {
  return s.includes(".") ? s.replace(/\.?0+$/, "") : s;
}

/** 0.4567 → "45.7%". */
export function formatPercent(ratio: number): string {
  if (!Number.isFinite(ratio)) return "–";
  const pct = ratio * 100;
  const digits = pct >= 100 || pct === 0 ? 0 : 1;
  return `${trimZeros(pct.toFixed(digits))}%`;
}

/** 10000 → "10,000". */
export function formatCount(n: number): string {
  // Below a thousand there is no separator to place: most counts in answers.
  return Number.isInteger(n) && n > -1000 && n < 1000 ? String(n) : COUNT_FORMAT.format(n);
}
/** Made once: `toLocaleString` builds a formatter on every call, measured at tens of µs each (issue 27). */
const COUNT_FORMAT = new Intl.NumberFormat("en-US");

/** "1 snapshot", "0 snapshots", "1,200 file systems": the count with its noun in the right number. */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** Microseconds or milliseconds to a latency string: "0.42 ms", "12 ms", "1.2 s". */
export function formatLatencyMs(ms: number): string {
  if (!Number.isFinite(ms)) return "–";
  if (ms >= 1000) return `${trimZeros((ms / 1000).toFixed(1))} s`;
  if (ms >= 10) return `${Math.round(ms)} ms`;
  return `${trimZeros(ms.toFixed(2))} ms`;
}

/**
 * 90_000 → "1m 30s"; 2 days → "2d". The largest unit and the one right below it, when not zero: "20h 18s"
 * (minutes skipped) reads as more precise than it is and is never written; that is "20h".
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "–";
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const units = [
    ["d", 86_400],
    ["h", 3_600],
    ["m", 60],
    ["s", 1],
  ] as const;
  const secs = Math.floor(ms / 1000);
  const first = units.findIndex(([, size]) => secs >= size);
  const [label, size] = units[first] ?? units[3];
  const parts = [`${Math.floor(secs / size)}${label}`];
  const next = units[first + 1];
  const below = next ? Math.floor((secs % size) / next[1]) : 0;
  if (next && below > 0) parts.push(`${below}${next[0]}`);
  return parts.join(" ");
}
