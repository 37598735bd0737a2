/**
 * The capacity forecast of one array: its space history from `/arrays/space` (the array keeps it; no
 * external metrics store is needed), a Theil–Sen fit, and when the fit reaches 80, 90 and 100 % with a range.
 * Shared by `/array space forecast` and the `capacity_forecast` alert rule. See docs/forecast.md.
 */
import { arraySpaceSchema } from "../../flashblade/schemas.js";
import type { ArrayClient } from "../../flashblade/types.js";
import { type Crossing, crossing, type LinearFit, theilSen } from "./theil-sen.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const FORECAST_LEVELS = [0.8, 0.9, 1] as const;
/** At most this many samples are asked for: enough for a stable fit, cheap to fit (n² pairs). */
const MAX_SAMPLES = 720;
/** A fit needs this much history; less is answered as "not enough history", not as a forecast. */
export const MIN_HISTORY_MS = 2 * DAY;
const MIN_SAMPLES = 24;

export interface LevelCrossing extends Crossing {
  /** 0.8, 0.9 or 1. */
  level: number;
}

export interface CapacityForecast {
  array: string;
  capacity: number;
  usedNow: number;
  /** The window asked for and the spacing of the samples. */
  windowMs: number;
  resolution: number;
  /** [time, used bytes] in time order. */
  history: [number, number][];
  /** Absent when there is not enough history; `reason` says why. */
  fit?: LinearFit;
  reason?: string;
  /** Growth in bytes per day: best estimate and its interval. */
  perDay?: { best: number; low: number; high: number };
  crossings: LevelCrossing[];
}

/** The sample spacing for a window: whole hours, at most MAX_SAMPLES samples. */
export function forecastResolution(windowMs: number): number {
  return Math.max(1, Math.ceil(windowMs / MAX_SAMPLES / HOUR)) * HOUR;
}

export async function capacityForecast(
  client: ArrayClient,
  opts: { windowMs: number; now: () => number },
): Promise<CapacityForecast> {
  const current = await client.arrays.space("array");
  const end = current.time ?? opts.now();
  const resolution = forecastResolution(opts.windowMs);
  const page = await client.get("/arrays/space", {
    query: { type: "array", start_time: end - opts.windowMs, end_time: end, resolution },
    schema: arraySpaceSchema,
  });
  const history: [number, number][] = page.items
    .flatMap((s) =>
      s.time !== undefined && s.space?.total_physical !== undefined
        ? [[s.time, s.space.total_physical] as [number, number]]
        : [],
    )
    .sort((a, b) => a[0] - b[0]);
  const capacity = current.capacity ?? 0;
  const usedNow = current.space?.total_physical ?? history[history.length - 1]?.[1] ?? 0;
  const base = { array: client.name, capacity, usedNow, windowMs: opts.windowMs, resolution, history };
  const first = history[0];
  const last = history[history.length - 1];
  const span = first && last ? last[0] - first[0] : 0;
  if (history.length < MIN_SAMPLES || span < MIN_HISTORY_MS) {
    return {
      ...base,
      crossings: [],
      reason: `the array returned ${history.length} space samples covering ${(span / DAY).toFixed(1)} days; a forecast needs at least ${MIN_HISTORY_MS / DAY} days`,
    };
  }
  if (capacity <= 0) return { ...base, crossings: [], reason: "the array reports no capacity" };
  const fit = theilSen(history);
  if (!fit) return { ...base, crossings: [], reason: "the samples do not vary in time" };
  return {
    ...base,
    fit,
    perDay: { best: fit.slope * DAY, low: fit.slopeLow * DAY, high: fit.slopeHigh * DAY },
    crossings: FORECAST_LEVELS.map((level) => ({ level, ...crossing(fit, level * capacity) })),
  };
}
