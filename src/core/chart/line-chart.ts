/**
 * A line chart as PNG bytes: one or more panels stacked over a shared x axis (time), each with its own y scale,
 * grid, title, legend and series. Pure and bounded: the same spec gives the same bytes, and sizes, panel and
 * series counts and points are capped so a request cannot make the bot draw something huge.
 */
import { InternalError } from "../../errors.js";
import { drawText, textWidth } from "./font.js";
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
];
const BG = 0;
const INK = 1;
const GRID = 2;
const MUTED = 3;
export const SERIES_COLORS = { blue: 4, orange: 5, green: 6, red: 7, purple: 8, teal: 9 } as const;
export type SeriesColor = keyof typeof SERIES_COLORS;

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

export interface Panel {
  title: string;
  series: readonly Series[];
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
  return [lo, hi];
}

/** Where each panel's plot area falls and its y range; exported so tests can find where a value is drawn. */
export function chartLayout(spec: LineChartSpec): PanelLayout[] {
  check(spec);
  const scales = spec.panels.map((p) => {
    const [lo, hi] = yExtent(p);
    return valueScale(lo, hi);
  });
  const labelWidth = Math.max(
    ...spec.panels.flatMap((p, i) => (scales[i]?.ticks ?? []).map((t) => textWidth(p.formatY(t)))),
  );
  const x0 = MARGIN.left + labelWidth + 6;
  const x1 = spec.width - 1 - MARGIN.right;
  const slot = (spec.height - MARGIN.top - MARGIN.bottom) / spec.panels.length;
  return scales.map((s, i) => {
    const top = Math.round(MARGIN.top + i * slot);
    const bottom =
      Math.round(MARGIN.top + (i + 1) * slot) - (i < spec.panels.length - 1 ? MARGIN.panelGap : 0);
    return {
      plot: { x0, x1, y0: top + MARGIN.titleGap, y1: bottom - 1 },
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
  for (const t of spec.xTicks) {
    const [px] = project(spec, layout, t.value, 0);
    if (px < plot.x0 || px > plot.x1) continue;
    r.vline(px, plot.y0, plot.y1, GRID, 2);
    r.vline(px, plot.y1 + 1, plot.y1 + 3, INK);
  }
  for (const v of layout.yTicks) {
    const [, py] = project(spec, layout, 0, v);
    r.hline(plot.x0, plot.x1, py, GRID, 2);
    r.hline(plot.x0 - 3, plot.x0 - 1, py, INK);
    const label = panel.formatY(v);
    drawText(r, plot.x0 - 5 - textWidth(label), py - 3, label, INK);
  }
  r.vline(plot.x0, plot.y0, plot.y1, INK);
  r.hline(plot.x0, plot.x1, plot.y1, INK);
  drawText(r, plot.x0, plot.y0 - MARGIN.titleGap + 3, panel.title, INK);
  // Legend, right-aligned on the title line: a swatch and the label per series.
  let lx = plot.x1;
  for (const s of [...panel.series].reverse()) {
    lx -= textWidth(s.label);
    drawText(r, lx, plot.y0 - MARGIN.titleGap + 3, s.label, INK);
    lx -= 10;
    r.fillRect(
      lx,
      plot.y0 - MARGIN.titleGap + 4,
      lx + 6,
      plot.y0 - MARGIN.titleGap + 8,
      SERIES_COLORS[s.color],
    );
    lx -= 12;
  }
  const drawn = panel.series.some((s) => s.points.some(([, y]) => Number.isFinite(y)));
  if (!drawn) {
    const text = "no data";
    drawText(
      r,
      Math.round((plot.x0 + plot.x1 - textWidth(text)) / 2),
      Math.round((plot.y0 + plot.y1) / 2) - 3,
      text,
      MUTED,
    );
  }
  for (const s of panel.series) drawSeries(r, spec, layout, s);
  if (last) {
    let prevEnd = Number.NEGATIVE_INFINITY;
    for (const t of spec.xTicks) {
      const [px] = project(spec, layout, t.value, 0);
      if (px < plot.x0 || px > plot.x1) continue;
      const w = textWidth(t.label);
      const lx = Math.min(Math.max(0, px - Math.floor(w / 2)), spec.width - w);
      // A label that would overlap the previous one is left out rather than smudged.
      if (lx <= prevEnd + 4) continue;
      drawText(r, lx, plot.y1 + 6, t.label, INK);
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
    const half = Math.floor(LINE_WIDTH / 2);
    if (prev) r.line(prev[0], prev[1] - half, p[0], p[1] - half, color, LINE_WIDTH, clip);
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
