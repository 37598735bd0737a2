/**
 * A line chart as PNG bytes: one or more panels stacked over a shared x axis (time), each with its own y scale,
 * grid, title, legend and series. Pure and bounded: the same spec gives the same bytes, and sizes, panel and
 * series counts and points are capped so a request cannot make the bot draw something huge.
 */
import { InternalError } from "../../../errors.js";
import { drawText, textWidth } from "./font.js";
import { drawBand, drawMarker, drawThreshold } from "./overlays.js";
import { encodePng, type Rgb } from "./png.js";
import { Raster, type Rect } from "./raster.js";
import { type Tick, valueScale } from "./ticks.js";

/** Palette slots; series pick one of the named colours. */
export const PALETTE: readonly Rgb[] = [
  [255, 255, 255], // background
  [64, 64, 64], // axes and text
  [225, 225, 225], // grid
  [120, 120, 120], // muted text
  [31, 119, 180], // blue
  [255, 127, 14], // orange
  [44, 160, 44], // green
  [214, 39, 40], // red
  [148, 103, 189], // purple
  [23, 190, 207], // teal
  // Tints for shaded bands, in SERIES_COLORS order: a line of the same hue stays visible on top.
  [198, 219, 239],
  [255, 221, 186],
  [199, 233, 192],
  [252, 204, 204],
  [222, 210, 235],
  [196, 238, 244],
];
const BG = 0;
const INK = 1;
const GRID = 2;
const MUTED = 3;
export const SERIES_COLORS = { blue: 4, orange: 5, green: 6, red: 7, purple: 8, teal: 9 } as const;
export type SeriesColor = keyof typeof SERIES_COLORS;
export const BAND_COLORS: Readonly<Record<SeriesColor, number>> = {
  blue: 10,
  orange: 11,
  green: 12,
  red: 13,
  purple: 14,
  teal: 15,
};

export const LIMITS = {
  minWidth: 200,
  maxWidth: 1600,
  minHeight: 100,
  maxHeight: 1000,
  panels: 4,
  series: 6,
  points: 20_000,
};

export interface Series {
  label: string;
  color: SeriesColor;
  /** [x, y] pairs in x order; a non-finite y leaves a gap. */
  points: readonly (readonly [number, number])[];
}

/** A shaded range (a baseline's normal spread, a forecast's uncertainty): [x, low, high] in x order. */
export interface Band {
  label: string;
  color: SeriesColor;
  points: readonly (readonly [number, number, number])[];
}

/** A horizontal reference line (80 % full). */
export interface Threshold {
  value: number;
  label: string;
  color: SeriesColor;
}

export interface Panel {
  title: string;
  series: readonly Series[];
  /** Drawn under the grid and the lines. */
  bands?: readonly Band[];
  thresholds?: readonly Threshold[];
  /** Formats a y tick value ("0.5 ms", "12K"). */
  formatY(value: number): string;
}

export interface LineChartSpec {
  width: number;
  height: number;
  panels: readonly Panel[];
  /** The x range drawn; points outside it are clipped. */
  xRange: readonly [number, number];
  xTicks: readonly Tick[];
  /** Vertical markers across every panel ("now"). */
  markers?: readonly { x: number; label: string }[];
  /** 2 doubles text and line sizes: for charts Slack shows shrunk to the width of a message. */
  scale?: 1 | 2;
}

export interface PanelLayout {
  /** The plot area (inclusive pixel bounds). */
  plot: Rect;
  yMin: number;
  yMax: number;
  yTicks: readonly number[];
}

const MARGIN = { left: 8, right: 14, top: 4, bottom: 16, titleGap: 14, panelGap: 8 };
const LINE_WIDTH = 2;

function check(spec: LineChartSpec): void {
  const bad = (why: string) => new InternalError("CHART_INVALID", `Chart spec rejected: ${why}`);
  const { width, height, panels } = spec;
  if (!Number.isInteger(width) || width < LIMITS.minWidth || width > LIMITS.maxWidth)
    throw bad(`width ${width} outside ${LIMITS.minWidth}-${LIMITS.maxWidth}`);
  if (!Number.isInteger(height) || height < LIMITS.minHeight || height > LIMITS.maxHeight)
    throw bad(`height ${height} outside ${LIMITS.minHeight}-${LIMITS.maxHeight}`);
  if (panels.length < 1 || panels.length > LIMITS.panels) throw bad(`${panels.length} panels`);
  for (const p of panels) {
    if (p.series.length > LIMITS.series) throw bad(`${p.series.length} series in "${p.title}"`);
    for (const s of p.series) if (s.points.length > LIMITS.points) throw bad(`${s.points.length} points`);
    if ((p.bands?.length ?? 0) > LIMITS.series) throw bad(`${p.bands?.length} bands in "${p.title}"`);
    for (const b of p.bands ?? [])
      if (b.points.length > LIMITS.points) throw bad(`${b.points.length} points`);
  }
  if (!spec.xRange.every(Number.isFinite)) throw bad("x range is not finite");
}

function yExtent(panel: Panel): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const s of panel.series)
    for (const [, y] of s.points) {
      if (!Number.isFinite(y)) continue;
      lo = Math.min(lo, y);
      hi = Math.max(hi, y);
    }
  for (const b of panel.bands ?? [])
    for (const [, a, z] of b.points) {
      if (!Number.isFinite(a) || !Number.isFinite(z)) continue;
      lo = Math.min(lo, a, z);
      hi = Math.max(hi, a, z);
    }
  for (const t of panel.thresholds ?? []) {
    lo = Math.min(lo, t.value);
    hi = Math.max(hi, t.value);
  }
  return [lo, hi];
}

/** Where each panel's plot area falls and its y range; exported so tests can find where a value is drawn. */
export function chartLayout(spec: LineChartSpec): PanelLayout[] {
  check(spec);
  const scales = spec.panels.map((p) => {
    const [lo, hi] = yExtent(p);
    return valueScale(lo, hi);
  });
  const k = spec.scale ?? 1;
  const labelWidth = Math.max(
    ...spec.panels.flatMap((p, i) => (scales[i]?.ticks ?? []).map((t) => textWidth(p.formatY(t), k))),
  );
  const x0 = MARGIN.left + labelWidth + 6 * k;
  const x1 = spec.width - 1 - MARGIN.right * k;
  const slot = (spec.height - MARGIN.top - MARGIN.bottom * k) / spec.panels.length;
  return scales.map((s, i) => {
    const top = Math.round(MARGIN.top + i * slot);
    const bottom =
      Math.round(MARGIN.top + (i + 1) * slot) - (i < spec.panels.length - 1 ? MARGIN.panelGap * k : 0);
    return {
      plot: { x0, x1, y0: top + MARGIN.titleGap * k, y1: bottom - 1 },
      yMin: s.min,
      yMax: s.max,
      yTicks: s.ticks,
    };
  });
}

/** The pixel column of x and row of y in a panel (unclamped). */
export function project(spec: LineChartSpec, layout: PanelLayout, x: number, y: number): [number, number] {
  const { plot, yMin, yMax } = layout;
  const [xa, xb] = spec.xRange;
  const px = xb > xa ? plot.x0 + ((x - xa) / (xb - xa)) * (plot.x1 - plot.x0) : (plot.x0 + plot.x1) / 2;
  const py = plot.y1 - ((y - yMin) / (yMax - yMin)) * (plot.y1 - plot.y0);
  return [Math.round(px), Math.round(py)];
}

function drawPanel(r: Raster, spec: LineChartSpec, panel: Panel, layout: PanelLayout, last: boolean): void {
  const { plot } = layout;
  const k = spec.scale ?? 1;
  const titleY = plot.y0 - MARGIN.titleGap * k + 3 * k;
  const at = (x: number, y: number) => project(spec, layout, x, y);
  for (const b of panel.bands ?? []) drawBand(r, layout.plot, at, BAND_COLORS[b.color], b.points);
  for (const t of spec.xTicks) {
    const [px] = project(spec, layout, t.value, 0);
    if (px < plot.x0 || px > plot.x1) continue;
    r.vline(px, plot.y0, plot.y1, GRID, 2);
    r.vline(px, plot.y1 + 1, plot.y1 + 3 * k, INK);
  }
  for (const v of layout.yTicks) {
    const [, py] = project(spec, layout, 0, v);
    r.hline(plot.x0, plot.x1, py, GRID, 2);
    r.hline(plot.x0 - 3 * k, plot.x0 - 1, py, INK);
    const label = panel.formatY(v);
    drawText(r, plot.x0 - 5 * k - textWidth(label, k), py - 3 * k, label, INK, k);
  }
  r.vline(plot.x0, plot.y0, plot.y1, INK);
  r.hline(plot.x0, plot.x1, plot.y1, INK);
  drawText(r, plot.x0, titleY, panel.title, INK, k);
  // Legend, right-aligned on the title line: a swatch and the label per series, then per band.
  let lx = plot.x1;
  const legend = [
    ...(panel.bands ?? []).map((b) => ({ label: b.label, color: BAND_COLORS[b.color] })),
    ...panel.series.map((s) => ({ label: s.label, color: SERIES_COLORS[s.color] })),
  ];
  for (const item of legend.reverse()) {
    lx -= textWidth(item.label, k);
    drawText(r, lx, titleY, item.label, INK, k);
    lx -= 10 * k;
    r.fillRect(lx, titleY + k, lx + 6 * k, titleY + 5 * k, item.color);
    lx -= 12 * k;
  }
  const drawn = panel.series.some((s) => s.points.some(([, y]) => Number.isFinite(y)));
  if (!drawn) {
    const text = "no data";
    drawText(
      r,
      Math.round((plot.x0 + plot.x1 - textWidth(text, k)) / 2),
      Math.round((plot.y0 + plot.y1) / 2) - 3 * k,
      text,
      MUTED,
      k,
    );
  }
  for (const t of panel.thresholds ?? [])
    drawThreshold(r, layout.plot, at, k, SERIES_COLORS[t.color], t.value, t.label);
  for (const m of spec.markers ?? []) drawMarker(r, layout.plot, at, k, MUTED, m.x, m.label);
  for (const s of panel.series) drawSeries(r, spec, layout, s);
  if (last) {
    let prevEnd = Number.NEGATIVE_INFINITY;
    for (const t of spec.xTicks) {
      const [px] = project(spec, layout, t.value, 0);
      if (px < plot.x0 || px > plot.x1) continue;
      const w = textWidth(t.label, k);
      const lx = Math.min(Math.max(0, px - Math.floor(w / 2)), spec.width - w);
      // A label that would overlap the previous one is left out rather than smudged.
      if (lx <= prevEnd + 4 * k) continue;
      drawText(r, lx, plot.y1 + 6 * k, t.label, INK, k);
      prevEnd = lx + w;
    }
  }
}

function drawSeries(r: Raster, spec: LineChartSpec, layout: PanelLayout, s: Series): void {
  const color = SERIES_COLORS[s.color];
  const clip = layout.plot;
  let prev: [number, number] | undefined;
  s.points.forEach(([x, y], i) => {
    if (!Number.isFinite(x) || !Number.isFinite(y)) {
      prev = undefined;
      return;
    }
    const p = project(spec, layout, x, y);
    const width = LINE_WIDTH * (spec.scale ?? 1);
    const half = Math.floor(width / 2);
    if (prev) r.line(prev[0], prev[1] - half, p[0], p[1] - half, color, width, clip);
    // A point with no neighbour would vanish as a line; it gets a dot.
    const next = s.points[i + 1];
    const isolated = !prev && (next === undefined || !Number.isFinite(next[1]));
    if (isolated) r.brush(p[0] - 1, p[1] - 1, color, 3, clip);
    prev = p;
  });
}

/** Renders the chart to PNG bytes. */
export function renderLineChart(spec: LineChartSpec): Uint8Array {
  const layouts = chartLayout(spec);
  const r = new Raster(spec.width, spec.height, BG);
  spec.panels.forEach((panel, i) => {
    const layout = layouts[i];
    if (layout) drawPanel(r, spec, panel, layout, i === spec.panels.length - 1);
  });
  return encodePng({ width: spec.width, height: spec.height, palette: PALETTE, pixels: r.pixels });
}
