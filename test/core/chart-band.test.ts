import { describe, expect, test } from "vitest";
import { textWidth } from "../../src/core/presentation/chart/font.js";
import {
  BAND_COLORS,
  chartLayout,
  type LineChartSpec,
  project,
  renderLineChart,
  SERIES_COLORS,
} from "../../src/core/presentation/chart/line-chart.js";
import { decodePng } from "./chart-decode.js";

const base = (over: Partial<LineChartSpec> = {}): LineChartSpec => ({
  width: 600,
  height: 300,
  xRange: [0, 100],
  xTicks: [{ value: 50, label: "50" }],
  panels: [
    {
      title: "p",
      formatY: (v) => String(v),
      series: [
        {
          label: "now",
          color: "red",
          points: [
            [0, 50],
            [100, 50],
          ],
        },
      ],
      bands: [
        {
          label: "usual",
          color: "blue",
          points: [
            [0, 20, 40],
            [100, 60, 80],
          ],
        },
      ],
      thresholds: [{ value: 90, label: "90%", color: "purple" }],
    },
  ],
  ...over,
});

describe("chart bands, thresholds and markers", () => {
  test("a band is filled between its low and high edges, interpolated, under the series line", () => {
    const spec = base();
    const png = decodePng(renderLineChart(spec));
    const layout = chartLayout(spec)[0]!;
    const tint = BAND_COLORS.blue;
    // At x = 25 the band runs from 30 to 50; at x = 75 from 50 to 70 (the line at 50 is drawn over it).
    const [px] = project(spec, layout, 25, 0);
    const [, inside] = project(spec, layout, 25, 40);
    const [, above] = project(spec, layout, 25, 56);
    const [, below] = project(spec, layout, 25, 24);
    expect(png.at(px, inside)).toBe(tint);
    expect(png.at(px, above)).not.toBe(tint);
    expect(png.at(px, below)).not.toBe(tint);
    const [qx, line] = project(spec, layout, 75, 50);
    expect([png.at(qx, line), png.at(qx, line - 1)]).toContain(SERIES_COLORS.red);
    const [, high] = project(spec, layout, 75, 66);
    expect(png.at(qx, high)).toBe(tint);
  });

  test("the y scale makes room for the band and the threshold, whose dashed line is drawn", () => {
    const spec = base();
    const layout = chartLayout(spec)[0]!;
    expect(layout.yMax).toBeGreaterThanOrEqual(90);
    const png = decodePng(renderLineChart(spec));
    const [, ty] = project(spec, layout, 0, 90);
    let purple = 0;
    for (let x = layout.plot.x0; x <= layout.plot.x1; x++)
      if (png.at(x, ty) === SERIES_COLORS.purple) purple++;
    expect(purple).toBeGreaterThan((layout.plot.x1 - layout.plot.x0) / 3);
  });

  test("scale 2 draws text twice as large (so Slack's shrunken preview stays legible) and a marker line", () => {
    expect(textWidth("12 ms", 2)).toBe(2 * textWidth("12 ms"));
    const one = chartLayout(base())[0]!;
    const two = chartLayout(base({ scale: 2 }))[0]!;
    // The left margin holds the widest y label: twice as wide at scale 2.
    expect(two.plot.x0).toBeGreaterThan(one.plot.x0);
    const spec = base({ scale: 2, markers: [{ x: 50, label: "now" }] });
    const png = decodePng(renderLineChart(spec));
    const layout = chartLayout(spec)[0]!;
    const [mx] = project(spec, layout, 50, 0);
    let muted = 0;
    for (let y = layout.plot.y0; y <= layout.plot.y1; y++) if (png.at(mx, y) === 3) muted++;
    expect(muted).toBeGreaterThan(10);
  });
});
