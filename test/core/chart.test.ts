import { describe, expect, test } from "vitest";
import {
  chartLayout,
  type LineChartSpec,
  PALETTE,
  project,
  renderLineChart,
  SERIES_COLORS,
} from "../../src/core/presentation/chart/line-chart.js";
import { encodePng } from "../../src/core/presentation/chart/png.js";
import { timeTicks } from "../../src/core/presentation/chart/ticks.js";
import { BotError } from "../../src/errors.js";
import { type DecodedPng, decodePng } from "./chart-decode.js";

const T0 = Date.UTC(2026, 10, 22, 0, 0, 0);
const HOUR = 3_600_000;

function spec(
  series: LineChartSpec["panels"][number]["series"],
  extra: Partial<LineChartSpec> = {},
): LineChartSpec {
  return {
    width: 800,
    height: 300,
    xRange: [T0, T0 + 4 * HOUR],
    xTicks: timeTicks(T0, T0 + 4 * HOUR),
    panels: [{ title: "IOPS", formatY: (v) => String(v), series }],
    ...extra,
  };
}

/** Rows in column x whose pixel is `color` (a palette index). */
function rowsOf(png: DecodedPng, x: number, color: number): number[] {
  const rows: number[] = [];
  for (let y = 0; y < png.height; y++) if (png.at(x, y) === color) rows.push(y);
  return rows;
}

function countColor(png: DecodedPng, color: number): number {
  let n = 0;
  for (let y = 0; y < png.height; y++) for (let x = 0; x < png.width; x++) if (png.at(x, y) === color) n++;
  return n;
}

const BLUE = SERIES_COLORS.blue;
const ORANGE = SERIES_COLORS.orange;

describe("PNG encoding", () => {
  test("a small palette image round-trips: signature, chunk order, IHDR, CRCs, inflated size, pixels", () => {
    const pixels = Uint8Array.of(0, 1, 2, 2, 1, 0);
    const png = decodePng(
      encodePng({
        width: 3,
        height: 2,
        palette: [
          [0, 0, 0],
          [255, 0, 0],
          [0, 0, 255],
        ],
        pixels,
      }),
    );
    expect(png.chunks).toEqual(["IHDR", "PLTE", "IDAT", "IEND"]);
    expect([png.width, png.height, png.bitDepth, png.colorType]).toEqual([3, 2, 8, 3]);
    expect(png.palette).toEqual([
      [0, 0, 0],
      [255, 0, 0],
      [0, 0, 255],
    ]);
    expect(png.raw.length).toBe(2 * (3 + 1));
    expect([0, 1, 2].map((x) => png.at(x, 0))).toEqual([0, 1, 2]);
    expect([0, 1, 2].map((x) => png.at(x, 1))).toEqual([2, 1, 0]);
  });

  test("refuses pixels that do not fill the image, and empty palettes, with a coded error", () => {
    const bad = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return err instanceof BotError ? err.code : "uncoded";
      }
      return "no error";
    };
    expect(
      bad(() => encodePng({ width: 2, height: 2, palette: [[0, 0, 0]], pixels: new Uint8Array(3) })),
    ).toBe("CHART_INVALID");
    expect(bad(() => encodePng({ width: 1, height: 1, palette: [], pixels: new Uint8Array(1) }))).toBe(
      "CHART_INVALID",
    );
  });
});

describe("line chart", () => {
  const rising = Array.from({ length: 241 }, (_, i) => [T0 + i * 60_000, i * 10] as const);

  test("is a valid PNG of the requested size whose IDAT inflates to height × (width + 1)", () => {
    const png = decodePng(renderLineChart(spec([{ label: "reads/s", color: "blue", points: rising }])));
    expect([png.width, png.height]).toEqual([800, 300]);
    expect(png.raw.length).toBe(300 * 801);
    expect(png.palette).toEqual(PALETTE.map((c) => [...c]));
  });

  test("is deterministic: the same spec gives the same bytes", () => {
    const a = renderLineChart(spec([{ label: "reads/s", color: "blue", points: rising }]));
    const b = renderLineChart(
      spec([{ label: "reads/s", color: "blue", points: rising.map((p) => [...p] as const) }]),
    );
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const c = renderLineChart(spec([{ label: "reads/s", color: "blue", points: rising.slice(1) }]));
    expect(Buffer.from(a).equals(Buffer.from(c))).toBe(false);
  });

  test("draws each series in its colour where its values fall", () => {
    const flat = rising.map(([x]) => [x, 1200] as const);
    const s = spec([
      { label: "reads/s", color: "blue", points: rising },
      { label: "writes/s", color: "orange", points: flat },
    ]);
    const [layout] = chartLayout(s);
    if (!layout) throw new Error("no layout");
    const png = decodePng(renderLineChart(s));
    for (const i of [30, 80, 200]) {
      const [x, y] = rising[i] ?? [0, 0];
      const [px, py] = project(s, layout, x, y);
      const blue = rowsOf(png, px, BLUE);
      expect(blue.length, `blue at column ${px}`).toBeGreaterThan(0);
      // Legend swatches sit above the plot; only rows inside it count.
      const inPlot = blue.filter((r) => r >= layout.plot.y0);
      expect(Math.min(...inPlot.map((r) => Math.abs(r - py)))).toBeLessThanOrEqual(2);
      const [, fy] = project(s, layout, x, 1200);
      expect(
        rowsOf(png, px, ORANGE)
          .filter((r) => r >= layout.plot.y0)
          .some((r) => Math.abs(r - fy) <= 1),
      ).toBe(true);
    }
    // The rising series is low on the left and high on the right.
    const left = rowsOf(png, layout.plot.x0 + 20, BLUE).filter((r) => r >= layout.plot.y0);
    const right = rowsOf(png, layout.plot.x1 - 20, BLUE).filter((r) => r >= layout.plot.y0);
    expect(Math.min(...left)).toBeGreaterThan(Math.max(...right));
  });

  test("a non-finite value leaves a gap instead of a line through it", () => {
    const points = rising.map(([x, y], i) => [x, i >= 100 && i <= 140 ? Number.NaN : y] as const);
    const s = spec([{ label: "reads/s", color: "blue", points }]);
    const [layout] = chartLayout(s);
    if (!layout) throw new Error("no layout");
    const png = decodePng(renderLineChart(s));
    const [gapX] = project(s, layout, T0 + 120 * 60_000, 0);
    expect(rowsOf(png, gapX, BLUE).filter((r) => r >= layout.plot.y0)).toEqual([]);
    const [liveX] = project(s, layout, T0 + 60 * 60_000, 0);
    expect(rowsOf(png, liveX, BLUE).filter((r) => r >= layout.plot.y0).length).toBeGreaterThan(0);
  });

  test("an empty chart still renders axes and says there is no data, without series colours", () => {
    const s = spec([
      { label: "reads/s", color: "blue", points: [] },
      { label: "writes/s", color: "orange", points: [[T0, Number.NaN]] },
    ]);
    const png = decodePng(renderLineChart(s));
    expect([png.width, png.height]).toEqual([800, 300]);
    const [layout] = chartLayout(s);
    if (!layout) throw new Error("no layout");
    // Only the two legend swatches (7×5 pixels each) carry series colours.
    expect(countColor(png, BLUE)).toBe(35);
    expect(countColor(png, ORANGE)).toBe(35);
    expect(countColor(png, 3)).toBeGreaterThan(0); // "no data" in the muted colour
    expect(layout.yMin).toBe(0);
    expect(layout.yMax).toBe(1);
  });

  test("a flat series of zeros sits on the x axis of a 0–1 scale", () => {
    const zeros = rising.map(([x]) => [x, 0] as const);
    const s = spec([{ label: "reads/s", color: "blue", points: zeros }]);
    const [layout] = chartLayout(s);
    if (!layout) throw new Error("no layout");
    expect([layout.yMin, layout.yMax]).toEqual([0, 1]);
    const png = decodePng(renderLineChart(s));
    const mid = Math.round((layout.plot.x0 + layout.plot.x1) / 2);
    const rows = rowsOf(png, mid, BLUE).filter((r) => r >= layout.plot.y0);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r >= layout.plot.y1 - 1 && r <= layout.plot.y1)).toBe(true);
  });

  test("a single point is drawn as a dot where it falls", () => {
    const s = spec([{ label: "reads/s", color: "blue", points: [[T0 + 2 * HOUR, 50]] }]);
    const [layout] = chartLayout(s);
    if (!layout) throw new Error("no layout");
    const [px, py] = project(s, layout, T0 + 2 * HOUR, 50);
    const png = decodePng(renderLineChart(s));
    for (const dx of [-1, 0, 1]) for (const dy of [-1, 0, 1]) expect(png.at(px + dx, py + dy)).toBe(BLUE);
    expect(countColor(png, BLUE)).toBe(35 + 9);
  });

  test("stacks panels with their own scales over one time axis", () => {
    const s: LineChartSpec = {
      ...spec([]),
      height: 360,
      panels: [
        { title: "IOPS", formatY: String, series: [{ label: "r", color: "blue", points: rising }] },
        {
          title: "Latency",
          formatY: (v) => `${v} ms`,
          series: [{ label: "w", color: "orange", points: rising.map(([x]) => [x, 0.4] as const) }],
        },
      ],
    };
    const [top, bottom] = chartLayout(s);
    expect(top?.yMax).toBeGreaterThanOrEqual(2400);
    expect(bottom?.yMax).toBe(0.4);
    expect((top?.plot.y1 ?? 0) < (bottom?.plot.y0 ?? 0)).toBe(true);
    const png = decodePng(renderLineChart(s));
    expect(png.height).toBe(360);
  });

  test("refuses sizes and point counts past its bounds", () => {
    const code = (f: () => unknown) => {
      try {
        f();
        return "no error";
      } catch (err) {
        return err instanceof BotError ? err.code : "uncoded";
      }
    };
    expect(code(() => renderLineChart(spec([], { width: 5000 })))).toBe("CHART_INVALID");
    expect(code(() => renderLineChart(spec([], { height: 10 })))).toBe("CHART_INVALID");
    const many = Array.from({ length: 20_001 }, (_, i) => [T0 + i, i] as const);
    expect(code(() => renderLineChart(spec([{ label: "x", color: "blue", points: many }])))).toBe(
      "CHART_INVALID",
    );
  });
});
