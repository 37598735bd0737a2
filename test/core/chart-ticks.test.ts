import { describe, expect, test } from "vitest";
import {
  ADVANCE,
  drawText,
  GLYPH_HEIGHT,
  GLYPH_WIDTH,
  GLYPHS,
  glyphFor,
  textWidth,
} from "../../src/core/presentation/chart/font.js";
import { Raster } from "../../src/core/presentation/chart/raster.js";
import { summarize } from "../../src/core/presentation/chart/stats.js";
import { timeTicks, valueScale } from "../../src/core/presentation/chart/ticks.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("value scale", () => {
  test("runs from 0 to a round maximum covering the data, in even steps", () => {
    const s = valueScale(3, 4.1);
    expect(s.min).toBe(0);
    expect(s.max).toBeGreaterThanOrEqual(4.1);
    const steps = s.ticks.slice(1).map((t, i) => t - (s.ticks[i] ?? 0));
    expect(new Set(steps.map((d) => d.toFixed(9))).size).toBe(1);
    expect(s.ticks.at(-1)).toBe(s.max);
    expect(s.ticks.length).toBeLessThanOrEqual(6);
  });

  test("gives flat and empty data a usable 0–1 scale, and keeps decimals clean", () => {
    expect(valueScale(0, 0)).toMatchObject({ min: 0, max: 1 });
    expect(valueScale(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY)).toMatchObject({ min: 0, max: 1 });
    expect(valueScale(0.1, 0.3).ticks).toEqual([0, 0.1, 0.2, 0.3]);
  });

  test("extends below zero when the data does", () => {
    expect(valueScale(-3, 7).min).toBeLessThanOrEqual(-3);
  });
});

describe("time ticks", () => {
  const start = Date.UTC(2026, 10, 21, 12, 7);
  test("a day in UTC: round hours as HH:MM, inside the window", () => {
    const ticks = timeTicks(start, start + DAY);
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    expect(ticks.length).toBeLessThanOrEqual(8);
    expect(ticks.every((t) => t.value >= start && t.value <= start + DAY)).toBe(true);
    expect(ticks.every((t) => /^\d\d:00$/.test(t.label))).toBe(true);
    expect(ticks[0]?.label).toBe("15:00");
  });

  test("a week: one tick per day, labelled MM-DD", () => {
    const ticks = timeTicks(start, start + 7 * DAY);
    expect(ticks.map((t) => t.label)).toEqual([
      "11-22",
      "11-23",
      "11-24",
      "11-25",
      "11-26",
      "11-27",
      "11-28",
    ]);
  });

  test("an hour: minutes", () => {
    expect(timeTicks(start, start + HOUR).map((t) => t.label)).toEqual([
      "12:10",
      "12:20",
      "12:30",
      "12:40",
      "12:50",
      "13:00",
    ]);
  });

  test("labels read as wall-clock time in the configured zone", () => {
    const utc = timeTicks(start, start + DAY, "UTC");
    const berlin = timeTicks(start, start + DAY, "Europe/Berlin");
    // Berlin is UTC+1 in November: the same round labels fall an hour earlier in UTC.
    expect(berlin[0]).toEqual({ value: Date.UTC(2026, 10, 21, 14), label: "15:00" });
    expect(utc[0]).toEqual({ value: Date.UTC(2026, 10, 21, 15), label: "15:00" });
    expect(timeTicks(start, start)).toEqual([]);
  });
});

describe("bitmap font", () => {
  test("every glyph is 7 rows of 5 cells, and covers digits, letters and chart punctuation", () => {
    for (const [ch, rows] of GLYPHS) {
      expect(rows.length, ch).toBe(GLYPH_HEIGHT);
      for (const r of rows) expect(r.length, ch).toBe(GLYPH_WIDTH);
    }
    const needed = "0123456789 ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz .:-/%()";
    expect([...needed].filter((c) => !GLYPHS.has(c))).toEqual([]);
  });

  test("draws the glyph's ink and nothing else; unknown characters become '?'", () => {
    const r = new Raster(20, 10);
    drawText(r, 1, 1, "7", 5);
    const seven = GLYPHS.get("7") ?? [];
    for (let y = 0; y < 10; y++)
      for (let x = 0; x < 20; x++) {
        const ink = seven[y - 1]?.[x - 1] ?? false;
        expect(r.get(x, y), `${x},${y}`).toBe(ink ? 5 : 0);
      }
    expect(glyphFor("€")).toBe(GLYPHS.get("?"));
    expect(glyphFor("–")).toBe(GLYPHS.get("-"));
    expect(textWidth("12:00")).toBe(5 * ADVANCE - 1);
    expect(textWidth("")).toBe(0);
  });
});

describe("summaries", () => {
  test("average, nearest-rank p95 and max over finite values", () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(summarize([...values, undefined, Number.NaN])).toEqual({
      avg: 50.5,
      p95: 95,
      max: 100,
      count: 100,
    });
    expect(summarize([7])).toEqual({ avg: 7, p95: 7, max: 7, count: 1 });
    expect(summarize([])).toBeUndefined();
  });
});
