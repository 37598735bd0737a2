/** The PNG of `/array space forecast`: used space in % of capacity, the fitted trend and its band ahead. */

import type { CapacityForecast } from "../src/core/forecast/capacity.js";
import { bandAt } from "../src/core/forecast/theil-sen.js";
import { type Band, renderLineChart, type Series } from "../src/core/presentation/chart/line-chart.js";
import { sampledChart } from "../src/core/presentation/chart/native.js";
import { timeTicks } from "../src/core/presentation/chart/ticks.js";
import type { Block, NativeChart } from "../src/core/presentation/message.js";
import { formatPercent } from "../src/core/words/units.js";

const DAY = 86_400_000;
/** Wide and tall enough that Slack's shrunken preview still shows the labels (text drawn at 2×). */
export const FORECAST_CHART = { width: 1100, height: 520 };
/** Never draw more than this far ahead, however slow the growth. */
const MAX_AHEAD = 365 * DAY;

export function safeName(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, "_");
}

/** How far ahead to draw: past the latest 100 % date when there is one, at least as far as the history. */
export function horizonOf(f: CapacityForecast): number {
  const full = f.crossings.find((c) => c.level === 1);
  const end = f.history[f.history.length - 1]?.[0] ?? 0;
  const target = full?.latest ?? full?.at;
  const ahead = target === undefined ? f.windowMs : Math.max(f.windowMs / 2, (target - end) * 1.04);
  return Math.min(MAX_AHEAD, Math.max(DAY, ahead));
}

export function forecastChart(f: CapacityForecast, timeZone: string): Block {
  const pct = (bytes: number) => (f.capacity > 0 ? (100 * bytes) / f.capacity : Number.NaN);
  // Past 100 % the line means nothing: the trend and its band stop at full.
  const capped = (bytes: number) => Math.min(100, pct(bytes));
  const start = f.history[0]?.[0] ?? 0;
  const now = f.history[f.history.length - 1]?.[0] ?? start;
  const end = now + horizonOf(f);
  const series: Series[] = [
    { label: "used", color: "blue", points: f.history.map(([t, u]) => [t, pct(u)] as const) },
  ];
  const bands: Band[] = [];
  if (f.fit) {
    const fit = f.fit;
    const steps = 60;
    const ahead = Array.from({ length: steps + 1 }, (_, i) => now + ((end - now) * i) / steps);
    series.push({
      label: "trend",
      color: "orange",
      points: ahead.map((t) => [t, capped(bandAt(fit, t)[0])] as const),
    });
    bands.push({
      label: "likely range",
      color: "orange",
      points: ahead.map((t) => {
        const [, lo, hi] = bandAt(fit, t);
        return [t, capped(lo), capped(hi)] as const;
      }),
    });
  }
  const png = renderLineChart({
    width: FORECAST_CHART.width,
    height: FORECAST_CHART.height,
    scale: 2,
    xRange: [start, end],
    xTicks: timeTicks(start, end, timeZone, 6),
    markers: [{ x: now, label: "now" }],
    panels: [
      {
        title: "Used, % of capacity",
        formatY: (v) => `${Math.round(v)}%`,
        series,
        bands,
        thresholds: [
          { value: 80, label: "80%", color: "purple" },
          { value: 90, label: "90%", color: "red" },
          { value: 100, label: "100%", color: "red" },
        ],
      },
    ],
  });
  const full = f.crossings.find((c) => c.level === 1);
  const title = `Capacity forecast for ${f.array}`;
  const altText =
    `Line chart of used space on ${f.array} as a share of capacity over the last ${Math.round(f.windowMs / DAY)} days ` +
    `(now ${formatPercent(f.capacity > 0 ? f.usedNow / f.capacity : 0)})` +
    (full?.at === undefined
      ? ""
      : `, with the trend reaching 100 % in about ${Math.round((full.at - now) / DAY)} days`);
  const native = nativeForecast(f, { start, now, end, title, summary: altText, timeZone });
  return {
    type: "image",
    title,
    altText,
    file: {
      filename: `forecast-${safeName(f.array)}.png`,
      title,
      contentType: "image/png",
      content: png,
    },
    ...(native ? { charts: [native] } : {}),
  };
}

/**
 * The forecast as a chart Slack draws: what was used up to now, then the trend ahead, with the likely range
 * around the trend (which is the measured value itself up to now: a line chart has one value per category).
 */
function nativeForecast(
  f: CapacityForecast,
  o: { start: number; now: number; end: number; title: string; summary: string; timeZone: string },
): NativeChart | undefined {
  const pct = (bytes: number) => (f.capacity > 0 ? Math.min(100, (100 * bytes) / f.capacity) : Number.NaN);
  const history = f.history.map(([t, u]) => [t, pct(u)] as const);
  const fit = f.fit;
  if (!fit)
    return sampledChart({
      title: o.title,
      summary: o.summary,
      xRange: [o.start, o.now],
      series: [{ name: "used", points: history }],
      yLabel: "% of capacity",
      round: (v) => Math.round(v * 10) / 10,
      timeZone: o.timeZone,
    });
  const steps = 40;
  const ahead = Array.from({ length: steps }, (_, i) => o.now + ((o.end - o.now) * (i + 1)) / steps);
  const at = (k: 0 | 1 | 2) => ahead.map((t) => [t, pct(bandAt(fit, t)[k])] as const);
  return sampledChart({
    title: o.title,
    summary: o.summary,
    xRange: [o.start, o.end],
    series: [
      { name: "used, then trend", points: [...history, ...at(0)] },
      { name: "likely low", points: [...history, ...at(1)] },
      { name: "likely high", points: [...history, ...at(2)] },
    ],
    yLabel: "% of capacity",
    round: (v) => Math.round(v * 10) / 10,
    timeZone: o.timeZone,
  });
}
