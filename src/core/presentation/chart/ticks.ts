/** Axis ticks: round value steps (1, 2, 5 × 10ⁿ) for y, and clock-aligned steps for time on x. */

export interface Tick {
  value: number;
  label: string;
}

export interface ValueScale {
  min: number;
  max: number;
  ticks: number[];
}

/** A step of 1, 2, 2.5 or 5 × 10ⁿ that cuts `span` into at most `count` parts. */
function niceStep(span: number, count: number): number {
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * mag >= raw) return m * mag;
  return 10 * mag;
}

/**
 * A y scale from min (0 unless the data goes below) to a round maximum covering `dataMax`. A flat or empty
 * series still gets a usable scale (0 to 1, or around the single value).
 */
export function valueScale(dataMin: number, dataMax: number, count = 4): ValueScale {
  let lo = Math.min(0, Number.isFinite(dataMin) ? dataMin : 0);
  let hi = Math.max(0, Number.isFinite(dataMax) ? dataMax : 0);
  if (hi === lo) hi = lo + 1;
  const step = niceStep(hi - lo, count);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  // Rounding keeps 0.1 + 0.2 style drift out of the labels.
  for (let v = lo; v <= hi + step / 2; v += step) ticks.push(Number(v.toPrecision(12)));
  return { min: lo, max: hi, ticks };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const TIME_STEPS = [
  MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
];

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at `t`, in ms (positive east of Greenwich). */
export function zoneOffset(t: number, timeZone: string): number {
  if (timeZone === "UTC") return 0;
  let f = offsetFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      hourCycle: "h23",
    });
    offsetFormatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(t)).map((x) => [x.type, Number(x.value)]));
  const wall = Date.UTC(
    p["year"] ?? 1970,
    (p["month"] ?? 1) - 1,
    p["day"] ?? 1,
    p["hour"] ?? 0,
    p["minute"] ?? 0,
  );
  return wall - Math.floor(t / MINUTE) * MINUTE;
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * Ticks at round wall-clock times in `timeZone` between `start` and `end`, at most `maxTicks` of them:
 * "HH:MM" below a day's step, "MM-DD" from there on.
 */
export function timeTicks(start: number, end: number, timeZone = "UTC", maxTicks = 8): Tick[] {
  if (!(end > start)) return [];
  const span = end - start;
  const step = TIME_STEPS.find((s) => span / s <= maxTicks) ?? Math.ceil(span / maxTicks / DAY) * DAY;
  // One offset for the window: a DST change inside it shifts later labels by an hour, which a chart tolerates.
  const offset = zoneOffset(start, timeZone);
  const ticks: Tick[] = [];
  for (let local = Math.ceil((start + offset) / step) * step; local - offset <= end; local += step) {
    const d = new Date(local);
    const label =
      step >= DAY
        ? `${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
        : `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
    ticks.push({ value: local - offset, label });
  }
  return ticks;
}
