/**
 * What a chart draws besides its lines: shaded bands (a baseline's usual range, a forecast's uncertainty),
 * horizontal threshold lines (80 % full) and vertical markers ("now"). Each works in pixels through the
 * panel's projection, so it knows nothing of the chart's scales.
 */
import { drawText, textWidth } from "./font.js";
import type { Raster, Rect } from "./raster.js";

type Project = (x: number, y: number) => [number, number];

/** Fills each pixel column between the band's low and high edges, interpolated between its points. */
export function drawBand(
  r: Raster,
  plot: Rect,
  at: Project,
  color: number,
  points: readonly (readonly [number, number, number])[],
): void {
  for (let i = 1; i < points.length; i++) {
    const p = points[i - 1];
    const q = points[i];
    if (!p || !q || ![...p, ...q].every(Number.isFinite)) continue;
    const [ax, alo] = at(p[0], p[1]);
    const [, ahi] = at(p[0], p[2]);
    const [bx, blo] = at(q[0], q[1]);
    const [, bhi] = at(q[0], q[2]);
    for (let x = Math.max(ax, plot.x0); x <= Math.min(bx, plot.x1); x++) {
      const f = bx > ax ? (x - ax) / (bx - ax) : 0;
      const lo = Math.round(alo + f * (blo - alo));
      const hi = Math.round(ahi + f * (bhi - ahi));
      for (let y = Math.max(hi, plot.y0); y <= Math.min(lo, plot.y1); y++) r.set(x, y, color);
    }
  }
}

/** A dashed horizontal line at `value` with its label at the left end. */
export function drawThreshold(
  r: Raster,
  plot: Rect,
  at: Project,
  k: number,
  color: number,
  value: number,
  label: string,
): void {
  const [, py] = at(0, value);
  if (py < plot.y0 || py > plot.y1) return;
  r.hline(plot.x0, plot.x1, py, color, 6);
  // Above the line, unless that would run into the panel's title: then below it.
  const ty = py - 9 * k < plot.y0 ? py + 3 * k : py - 9 * k;
  drawText(r, plot.x0 + 4 * k, ty, label, color, k);
}

/** A dotted vertical line at `x` with its label at the top. */
export function drawMarker(
  r: Raster,
  plot: Rect,
  at: Project,
  k: number,
  color: number,
  x: number,
  label: string,
): void {
  const [px] = at(x, 0);
  if (px < plot.x0 || px > plot.x1) return;
  r.vline(px, plot.y0, plot.y1, color, 4);
  const w = textWidth(label, k);
  drawText(r, Math.min(px + 3 * k, plot.x1 - w), plot.y0 + 2 * k, label, color, k);
}
