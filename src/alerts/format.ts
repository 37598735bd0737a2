import { formatTimestamp } from "../core/presentation/format-time.js";
import { formatDuration } from "../core/words/units.js";

/** "2023-02-27 12:05 UTC" in the configured zone: absolute, unambiguous, readable in a notification. */
export const formatTime = formatTimestamp;

/** A duration for humans, at least "1s" (a closed alert never lasted "0ms"). */
export function formatSpan(ms: number): string {
  return formatDuration(Math.max(1000, ms));
}

/** "day", "30 days", "6 hours" ("in the last day"); with `countOne`, "1 day" (a button label). */
export function formatWindow(ms: number, countOne = false): string {
  const units: [number, string][] = [
    [86_400_000, "day"],
    [3_600_000, "hour"],
    [60_000, "minute"],
  ];
  for (const [size, label] of units) {
    if (ms >= size && ms % size === 0) {
      const n = ms / size;
      if (n === 1) return countOne ? `1 ${label}` : label;
      return `${n} ${label}s`;
    }
  }
  return formatDuration(ms);
}

/** "1st", "2nd", "3rd", "4th"… */
export function ordinal(n: number): string {
  const t = n % 100;
  if (t >= 11 && t <= 13) return `${n}th`;
  return `${n}${["th", "st", "nd", "rd"][n % 10] ?? "th"}`;
}
