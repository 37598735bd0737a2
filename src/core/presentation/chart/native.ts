/**
 * Charts a face draws itself (Slack's `data_visualization` block): a line chart over shared categories, sampled
 * from the same series the PNG is drawn from. Slack's limits are kept here, where the chart is made, so the
 * face only lays it out: a title of at most 50 characters, 1 to 6 named series, category labels of at most 20
 * characters, and one finite value per series for every category. A chart that cannot keep them is not made
 * (the PNG stays). Pure: nothing here reads a clock or sends anything.
 */
import type { NativeChart } from "../message.js";

export const NATIVE_LIMITS = { title: 50, series: 6, label: 20, categories: 20, axisLabel: 50 } as const;

type Point = readonly [x: number, y: number];

export interface SampledChart {
  title: string;
  /** What the chart shows, in words: the text a screen reader reads and a client without the block shows. */
  summary: string;
  xRange: readonly [number, number];
  series: readonly { name: string; points: readonly Point[] }[];
  yLabel?: string;
  /** Rounds a value for the chart (its unit's precision). */
  round?: (v: number) => number;
  timeZone: string;
}

const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

/** The value at x: the last finite point at or before it, else the first after it (none: undefined). */
function valueAt(points: readonly Point[], x: number): number | undefined {
  let before: number | undefined;
  let after: number | undefined;
  for (const [px, py] of points) {
    if (!Number.isFinite(px) || !Number.isFinite(py)) continue;
    if (px <= x) before = py;
    else if (after === undefined) after = py;
  }
  return before ?? after;
}

/** Category labels for times `step` apart: to the second under a minute, else to the minute, with the day. */
function timeLabels(times: readonly number[], step: number, timeZone: string): string[] {
  const format = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    ...(step < 60_000 ? { second: "2-digit" } : {}),
    hourCycle: "h23",
  });
  return times.map((t) => format.format(t).replace(",", ""));
}

/** The chart sampled at evenly spaced times across the range, or undefined when Slack's limits cannot hold. */
export function sampledChart(c: SampledChart): NativeChart | undefined {
  const [x0, x1] = c.xRange;
  const series = c.series.slice(0, NATIVE_LIMITS.series);
  if (series.length === 0 || !(x1 > x0)) return undefined;
  const n = NATIVE_LIMITS.categories;
  const step = (x1 - x0) / (n - 1);
  const times = Array.from({ length: n }, (_, i) => x0 + step * i);
  const categories = timeLabels(times, step, c.timeZone);
  if (new Set(categories).size !== categories.length) return undefined;
  const round = c.round ?? ((v: number) => Math.round(v * 100) / 100);
  const out: NativeChart["series"] = [];
  for (const s of series) {
    const values = times.map((t) => valueAt(s.points, t));
    if (values.some((v) => v === undefined)) return undefined;
    out.push({ name: clip(s.name, NATIVE_LIMITS.label), values: values.map((v) => round(v as number)) });
  }
  if (new Set(out.map((s) => s.name)).size !== out.length) return undefined;
  return {
    title: clip(c.title, NATIVE_LIMITS.title),
    summary: c.summary,
    categories,
    series: out,
    ...(c.yLabel ? { yLabel: clip(c.yLabel, NATIVE_LIMITS.axisLabel) } : {}),
  };
}
