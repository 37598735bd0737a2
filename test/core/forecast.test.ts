import { describe, expect, test } from "vitest";
import { bandAt, crossing, effectiveSize, theilSen } from "../../src/core/forecast/theil-sen.js";

/** A seeded uniform source, so every run draws the same noise. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

const line = (n: number, slope: number, noise: () => number) =>
  Array.from({ length: n }, (_, i) => [i, 100 + slope * i + noise()] as const);

describe("Theil–Sen fit", () => {
  test("recovers the slope of a noisy line and ignores a few wild readings", () => {
    const r = rng(7);
    const pts = line(200, 2, () => (r() - 0.5) * 10).map(
      ([x, y]) => [x, x % 40 === 0 ? y + 5000 : y] as const,
    );
    const fit = theilSen(pts)!;
    expect(fit.slope).toBeGreaterThan(1.9);
    expect(fit.slope).toBeLessThan(2.1);
    expect(fit.slopeLow).toBeLessThanOrEqual(fit.slope);
    expect(fit.slopeHigh).toBeGreaterThanOrEqual(fit.slope);
  });

  test("its 95 % slope interval holds the true slope in about 95 % of noisy samples", () => {
    let hits = 0;
    const trials = 200;
    for (let t = 0; t < trials; t++) {
      const r = rng(1000 + t);
      const fit = theilSen(line(60, 0.5, () => (r() - 0.5) * 20))!;
      if (fit.slopeLow <= 0.5 && 0.5 <= fit.slopeHigh) hits++;
    }
    expect(hits / trials).toBeGreaterThan(0.9);
    expect(hits / trials).toBeLessThan(0.995);
  });

  test("readings that drift together (autocorrelated) count as fewer samples and widen the interval", () => {
    const r = rng(3);
    let walk = 0;
    const drifting = line(300, 1, () => {
      walk = 0.95 * walk + (r() - 0.5) * 10;
      return walk;
    });
    const r2 = rng(3);
    const independent = line(300, 1, () => (r2() - 0.5) * 10);
    const a = theilSen(drifting)!;
    const b = theilSen(independent)!;
    expect(a.nEff).toBeLessThan(60);
    expect(b.nEff).toBeGreaterThan(200);
    expect(a.slopeHigh - a.slopeLow).toBeGreaterThan(2 * (b.slopeHigh - b.slopeLow));
    expect(effectiveSize([1, 1, 1, 1])).toBe(4);
  });

  test("crossings: a date with a range for growth, none when flat, 'reached' when already there", () => {
    const r = rng(11);
    const fit = theilSen(line(100, 1, () => r() - 0.5))!;
    const c = crossing(fit, 300);
    expect(c.reached).toBe(false);
    expect(c.at).toBeGreaterThan(195);
    expect(c.at).toBeLessThan(205);
    expect(c.earliest!).toBeLessThanOrEqual(c.at!);
    expect(c.latest!).toBeGreaterThanOrEqual(c.at!);
    expect(crossing(fit, 150).reached).toBe(true);
    const flat = theilSen(line(100, 0, () => r() - 0.5))!;
    expect(crossing(flat, 300).latest).toBeUndefined();
    const [mid, lo, hi] = bandAt(fit, 150);
    expect(lo).toBeLessThan(mid);
    expect(hi).toBeGreaterThan(mid);
    expect(
      theilSen([
        [1, 1],
        [1, 2],
      ]),
    ).toBeUndefined();
  });
});
