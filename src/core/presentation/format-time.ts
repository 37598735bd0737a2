/** Times for people: absolute in the configured zone (UTC by default) and relative to "now". */
import { formatDuration } from "../words/units.js";

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Date can hold ±8.64e15 ms; arrays and long forecasts can hand us more (or NaN), which must not throw. */
const MAX_DATE_MS = 8.64e15;
/** Beyond year 9999 a day means nothing to a reader; forecasts that far are "never" in practice. */
const YEAR_10000_MS = 253_402_300_800_000;

/** "2026-11-22"; times beyond year 9999 read "after 9999-12-31", and a value that is not a time says so. */
export function formatDay(ms: number): string {
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_DATE_MS) return `not a time (${ms})`;
  if (ms >= YEAR_10000_MS) return "after 9999-12-31";
  return new Date(ms).toISOString().slice(0, 10);
}

/** "2026-11-22 14:02 UTC"; a value no Date can hold is shown as "not a time (…)" rather than thrown. */
export function formatTimestamp(ms: number, timeZone = "UTC"): string {
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_DATE_MS) return `not a time (${ms})`;
  // UTC is the common case and Intl's formatToParts is slow (long listings format thousands of times).
  if (timeZone === "UTC") {
    const iso = new Date(ms).toISOString();
    return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  }
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return `${parts["year"]}-${parts["month"]}-${parts["day"]} ${parts["hour"]}:${parts["minute"]} ${parts["timeZoneName"]}`;
}

const DAY = 86_400_000;

/**
 * "3h 5m ago", "in 15m", "just now"; past two days the precision a reader can use: "12 days ago",
 * "5 months ago", "2 years ago" (never "900d 37s ago").
 */
export function formatRelative(ms: number, now: number): string {
  const d = ms - now;
  if (!Number.isFinite(d)) return "at an unknown time";
  if (Math.abs(d) < 60_000) return "just now";
  const span = Math.abs(d);
  const text = span < 2 * DAY ? formatDuration(span) : roughly(span);
  return d < 0 ? `${text} ago` : `in ${text}`;
}

function roughly(span: number): string {
  const days = Math.floor(span / DAY);
  if (days < 60) return `${days} days`;
  const months = Math.floor(days / 30.44);
  if (months < 24) return `${months} months`;
  return `${Math.floor(days / 365.25)} years`;
}

/** "2026-11-22 14:02 UTC (3h ago)". */
export function formatWhen(ms: number, now: number, timeZone = "UTC"): string {
  return `${formatTimestamp(ms, timeZone)} (${formatRelative(ms, now)})`;
}
