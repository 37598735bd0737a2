/**
 * Charts for Slack to draw keep Slack's limits where they are made (src/core/presentation/chart/native.ts): 20 categories at
 * most, with distinct labels of at most 20 characters; 6 series at most, with distinct names; one finite value
 * per series and category; a title of at most 50 characters. A chart that cannot keep them is not made.
 */
import { describe, expect, it } from "vitest";
import { NATIVE_LIMITS, sampledChart } from "../../src/core/presentation/chart/native.js";
import { dataVisualization } from "../../src/slack/chart-block.js";
import { dataVisualizationViolations } from "../fakes/chart-rules.js";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 1);
const ramp = (n: number, step: number) =>
  Array.from({ length: n }, (_, i) => [T0 + i * step, i * 1.5] as const);

describe("sampledChart", () => {
  it("samples every series at the same 20 times, keeping Slack's limits", () => {
    const series = Array.from({ length: 8 }, (_, i) => ({ name: `series ${i}`, points: ramp(500, 60_000) }));
    const c = sampledChart({
      title: "A title much longer than fifty characters, which Slack would refuse",
      summary: "in words",
      xRange: [T0, T0 + 499 * 60_000],
      series,
      timeZone: "UTC",
    });
    if (!c) throw new Error("no chart");
    expect(c.title.length).toBeLessThanOrEqual(NATIVE_LIMITS.title);
    expect(c.categories).toHaveLength(NATIVE_LIMITS.categories);
    expect(new Set(c.categories).size).toBe(c.categories.length);
    expect(c.categories.every((l) => l.length <= NATIVE_LIMITS.label)).toBe(true);
    expect(c.series).toHaveLength(NATIVE_LIMITS.series);
    for (const s of c.series) expect(s.values.every(Number.isFinite)).toBe(true);
    expect(c.series[0]?.values[0]).toBe(0);
    expect(
      dataVisualizationViolations(dataVisualization(c) as Record<string, unknown>, "b", "message"),
    ).toEqual([]);
  });

  it("labels times to the second when they are under a minute apart", () => {
    const c = sampledChart({
      title: "t",
      summary: "s",
      xRange: [T0, T0 + 5 * 60_000],
      series: [{ name: "x", points: ramp(100, 3000) }],
      timeZone: "UTC",
    });
    expect(c?.categories[1]).toMatch(/\d\d:\d\d:\d\d$/);
  });

  it("makes no chart for a series with no value, or names that repeat", () => {
    const empty = [{ name: "x", points: [[T0, Number.NaN]] as const }];
    expect(
      sampledChart({ title: "t", summary: "s", xRange: [T0, T0 + HOUR], series: empty, timeZone: "UTC" }),
    ).toBe(undefined);
    const twice = [
      { name: "same", points: ramp(10, HOUR) },
      { name: "same", points: ramp(10, HOUR) },
    ];
    expect(
      sampledChart({ title: "t", summary: "s", xRange: [T0, T0 + 9 * HOUR], series: twice, timeZone: "UTC" }),
    ).toBe(undefined);
  });
});
