/** The PNG chart of `/array perf --last`: IOPS by kind over latency by kind, on the array's time axis. */
import { renderLineChart } from "../src/core/presentation/chart/line-chart.js";
import { sampledChart } from "../src/core/presentation/chart/native.js";
import { summarize } from "../src/core/presentation/chart/stats.js";
import { timeTicks } from "../src/core/presentation/chart/ticks.js";
import type { Block } from "../src/core/presentation/message.js";
import { formatLatencyMs } from "../src/core/words/units.js";
import type { PerfHistory, PerfSample } from "./perf.js";

export const CHART_WIDTH = 800;
export const CHART_HEIGHT = 360;

/** 2500 → "2.5K": tick labels stay short enough for the left margin. */
export function compactCount(v: number): string {
  const trim = (x: number) => String(Number(x.toFixed(2)));
  if (Math.abs(v) >= 1e6) return `${trim(v / 1e6)}M`;
  if (Math.abs(v) >= 1e3) return `${trim(v / 1e3)}K`;
  return trim(v);
}

/** A file name for the chart that Slack and file systems accept whatever the array is called. */
export function chartFilename(array: string, window: string): string {
  return `perf-${array.replace(/[^A-Za-z0-9._-]+/g, "_")}-${window.replace(/[^A-Za-z0-9]+/g, "")}.png`;
}

/** More points than pixel columns add nothing but drawing time; an array that ignored `resolution` is thinned. */
export const MAX_DRAWN = 1600;

/** Every k-th sample so that at most `max` remain, always keeping the last one. */
export function thin<T>(samples: readonly T[], max = MAX_DRAWN): readonly T[] {
  if (samples.length <= max) return samples;
  const step = Math.ceil(samples.length / max);
  const kept = samples.filter((_, i) => i % step === 0);
  const last = samples[samples.length - 1];
  if (last === undefined || kept[kept.length - 1] === last) return kept;
  // The newest sample is what people look at: it replaces the last kept one when the budget is spent.
  if (kept.length < max) kept.push(last);
  else kept[kept.length - 1] = last;
  return kept;
}

export function perfChart(h: PerfHistory, window: string, timeZone: string): Block {
  const drawn = thin(h.samples);
  const line = (pick: (s: PerfSample) => number | undefined) =>
    drawn.map((s) => [s.time ?? Number.NaN, pick(s) ?? Number.NaN] as const);
  const png = renderLineChart({
    width: CHART_WIDTH,
    height: CHART_HEIGHT,
    xRange: [h.start, h.end],
    xTicks: timeTicks(h.start, h.end, timeZone),
    panels: [
      {
        title: "IOPS",
        formatY: compactCount,
        series: [
          { label: "reads/s", color: "blue", points: line((s) => s.reads) },
          { label: "writes/s", color: "orange", points: line((s) => s.writes) },
          { label: "other/s", color: "green", points: line((s) => s.others) },
        ],
      },
      {
        title: "Latency per operation",
        formatY: formatLatencyMs,
        series: [
          { label: "read", color: "blue", points: line((s) => s.readMs) },
          { label: "write", color: "orange", points: line((s) => s.writeMs) },
        ],
      },
    ],
  });
  const peak = summarize(h.samples.map((s) => s.reads + s.writes + s.others))?.max;
  const worst = summarize(h.samples.map((s) => Math.max(s.readMs ?? 0, s.writeMs ?? 0)))?.max;
  const title = `IOPS and latency on ${h.array}, last ${window}`;
  const altText =
    `Line chart of reads, writes and other operations per second and of read and write latency on ${h.array} ` +
    `over the last ${window}` +
    (peak === undefined ? "" : `; peak ${compactCount(Math.round(peak))} IOPS`) +
    (worst === undefined ? "" : `, highest latency ${formatLatencyMs(worst)}`);
  // The same panels as charts Slack draws: IOPS, then latency.
  const native = (
    name: string,
    yLabel: string,
    series: { name: string; points: readonly (readonly [number, number])[] }[],
    summary: string,
  ) =>
    sampledChart({
      title: `${name} on ${h.array}, last ${window}`,
      summary,
      xRange: [h.start, h.end],
      series,
      yLabel,
      timeZone,
    });
  const charts = [
    native(
      "IOPS",
      "operations per second",
      [
        { name: "reads/s", points: line((s) => s.reads) },
        { name: "writes/s", points: line((s) => s.writes) },
        { name: "other/s", points: line((s) => s.others) },
      ],
      `Reads, writes and other operations per second on ${h.array} over the last ${window}` +
        (peak === undefined ? "" : `; peak ${compactCount(Math.round(peak))} IOPS`),
    ),
    native(
      "Latency",
      "milliseconds per operation",
      [
        { name: "read ms", points: line((s) => s.readMs) },
        { name: "write ms", points: line((s) => s.writeMs) },
      ],
      `Read and write latency on ${h.array} over the last ${window}` +
        (worst === undefined ? "" : `; highest ${formatLatencyMs(worst)}`),
    ),
  ].filter((c) => c !== undefined);
  return {
    type: "image",
    title,
    altText,
    file: { filename: chartFilename(h.array, window), title, contentType: "image/png", content: png },
    ...(charts.length > 0 ? { charts } : {}),
  };
}
