/** Times for people: absolute in the configured zone (UTC by default) and relative to "now". */
import { formatDuration } from "./units.js";

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

/** "2026-11-22 14:02 UTC". */
export function formatTimestamp(ms: number, timeZone = "UTC"): string {
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

/** "3h 5m ago", "in 15m", "just now". */
export function formatRelative(ms: number, now: number): string {
  const d = ms - now;
  if (Math.abs(d) < 60_000) return "just now";
  return d < 0 ? `${formatDuration(-d)} ago` : `in ${formatDuration(d)}`;
}

/** "2026-11-22 14:02 UTC (3h ago)". */
export function formatWhen(ms: number, now: number, timeZone = "UTC"): string {
  return `${formatTimestamp(ms, timeZone)} (${formatRelative(ms, now)})`;
}
