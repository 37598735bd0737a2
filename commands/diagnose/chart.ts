/** The PNG of `/array diagnose`: the window's latency and IOPS for the protocol at fault, over its baseline band. */
import { type Band, renderLineChart } from "../../src/core/presentation/chart/line-chart.js";
import { sampledChart } from "../../src/core/presentation/chart/native.js";
import { timeTicks } from "../../src/core/presentation/chart/ticks.js";
import type { Block } from "../../src/core/presentation/message.js";
import { formatLatencyMs } from "../../src/core/words/units.js";
import { iopsOf, type PerfSample } from "../perf.js";
import { compactCount } from "../perf-chart.js";
import type { DiagnoseData, DiagProtocol } from "./collect.js";

const DAY = 86_400_000;
export const DIAGNOSE_CHART = { width: 1100, height: 620 };

/** Per sample slot of the window, the lowest and highest value the previous days had at that time of day. */
export function baselineBand(
  data: DiagnoseData,
  protocol: DiagProtocol,
  f: (s: PerfSample) => number | undefined,
): Band["points"] {
  const p = data.perf[protocol];
  if (!p) return [];
  const slots = new Map<number, number[]>();
  for (const day of p.days) {
    for (const s of day) {
      if (s.time === undefined) continue;
      const v = f(s);
      if (v === undefined || !Number.isFinite(v)) continue;
      // The same time of day in the window: shifted forward by whole days.
      const shift = Math.round((data.end - s.time) / DAY) * DAY;
      const slot = Math.round((s.time + shift - data.start) / data.resolution);
      const list = slots.get(slot) ?? [];
      list.push(v);
      slots.set(slot, list);
    }
  }
  return [...slots.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([slot, vs]) => [data.start + slot * data.resolution, Math.min(...vs), Math.max(...vs)] as const);
}

export function diagnoseChart(
  data: DiagnoseData,
  protocol: DiagProtocol,
  window: string,
  timeZone: string,
): Block {
  const name = protocol === "all" ? "all protocols" : protocol.toUpperCase();
  const samples = data.perf[protocol]?.window ?? [];
  const line = (f: (s: PerfSample) => number | undefined) =>
    samples.map((s) => [s.time ?? Number.NaN, f(s) ?? Number.NaN] as const);
  const png = renderLineChart({
    width: DIAGNOSE_CHART.width,
    height: DIAGNOSE_CHART.height,
    scale: 2,
    xRange: [data.start, data.end],
    xTicks: timeTicks(data.start, data.end, timeZone, 6),
    panels: [
      {
        title: `Latency, ${name}`,
        formatY: formatLatencyMs,
        series: [{ label: "now", color: "red", points: line((s) => s.opMs) }],
        bands: [{ label: "usual", color: "blue", points: baselineBand(data, protocol, (s) => s.opMs) }],
      },
      {
        title: `IOPS, ${name}`,
        formatY: compactCount,
        series: [{ label: "now", color: "orange", points: line(iopsOf) }],
        bands: [{ label: "usual", color: "blue", points: baselineBand(data, protocol, iopsOf) }],
      },
    ],
  });
  const title = `${name} on ${data.array}, last ${window}, against the same hours of previous days`;
  const days = data.perf[protocol]?.days.length ?? 0;
  // Charts Slack draws: now against the usual low and high of the same hours (a band is two lines there).
  const native = (what: string, f: (s: PerfSample) => number | undefined, yLabel: string) => {
    const band = baselineBand(data, protocol, f);
    return sampledChart({
      title: `${what}, ${name} on ${data.array}`,
      summary: `${what} for ${name} on ${data.array} over the last ${window}, against the lowest and highest the previous ${days} days had at the same hours`,
      xRange: [data.start, data.end],
      series: [
        { name: "now", points: line(f) },
        ...(band.length > 0
          ? [
              { name: "usual low", points: band.map(([t, lo]) => [t, lo] as const) },
              { name: "usual high", points: band.map(([t, , hi]) => [t, hi] as const) },
            ]
          : []),
      ],
      yLabel,
      timeZone,
    });
  };
  const charts = [
    native("Latency", (s) => s.opMs, "milliseconds per operation"),
    native("IOPS", iopsOf, "operations per second"),
  ].filter((c) => c !== undefined);
  return {
    type: "image",
    title,
    ...(charts.length > 0 ? { charts } : {}),
    altText: `Line charts of latency and IOPS for ${name} on ${data.array} over the last ${window}, each over a shaded band of the range the previous ${days} days had at the same hours`,
    file: {
      filename: `diagnose-${data.array.replace(/[^A-Za-z0-9._-]+/g, "_")}-${protocol}.png`,
      title,
      contentType: "image/png",
      content: png,
    },
  };
}
