import { describe, expect, test } from "vitest";
import {
  countOf,
  formatBytes,
  formatCount,
  formatDuration,
  formatLatencyMs,
  formatPercent,
  parseDuration,
  parseSize,
} from "../../src/core/words/units.js";

const G = 2 ** 30;
const T = 2 ** 40;

describe("parseSize: every unit is binary", () => {
  test.each([
    ["500G", 500 * G],
    ["1.5T", 1.5 * T],
    ["2TiB", 2 * T],
    ["10GB", 10 * G],
    ["10gb", 10 * G],
    ["1024", 1024],
    ["1024B", 1024],
    ["3K", 3 * 1024],
    ["2M", 2 * 2 ** 20],
    ["1P", 2 ** 50],
    [" 7 G ", 7 * G],
  ])("%s", (text, bytes) => {
    expect(parseSize(text)).toBe(bytes);
  });

  test.each(["", "G", "1.2.3G", "-5G", "5X", "5 iB", "abc", "1e3G", "99999999999P"])("rejects %j", (text) => {
    expect(parseSize(text)).toBeUndefined();
  });
});

describe("parseDuration", () => {
  test.each([
    ["30m", 30 * 60_000],
    ["24h", 24 * 3_600_000],
    ["7d", 7 * 86_400_000],
    ["45s", 45_000],
    ["1h30m", 90 * 60_000],
    ["2w", 14 * 86_400_000],
  ])("%s", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  test.each(["", "30", "m", "0m", "5y", "-1h"])("rejects %j", (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});

describe("formatting", () => {
  test("bytes use binary units and at most three significant digits", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(12.4 * T)).toBe("12.4 TiB");
    expect(formatBytes(500 * G)).toBe("500 GiB");
    expect(formatBytes(1.86 * T)).toBe("1.86 TiB");
  });
  test("percent, counts, latency, durations", () => {
    expect(formatPercent(0.4567)).toBe("45.7%");
    expect(formatPercent(1.12)).toBe("112%");
    expect(formatCount(10_000)).toBe("10,000");
    expect(formatLatencyMs(0.42)).toBe("0.42 ms");
    expect(formatLatencyMs(12.4)).toBe("12 ms");
    expect(formatLatencyMs(1234)).toBe("1.2 s");
    expect(formatDuration(90_000)).toBe("1m 30s");
    expect(formatDuration(2 * 86_400_000 + 3_600_000 + 5000)).toBe("2d 1h");
  });
});

describe("countOf: a count with its noun in the right number", () => {
  test.each([
    [0, "snapshot", undefined, "0 snapshots"],
    [1, "snapshot", undefined, "1 snapshot"],
    [1200, "file system", undefined, "1,200 file systems"],
    [1, "closed alert", undefined, "1 closed alert"],
    [2, "policy", "policies", "2 policies"],
  ])("%d %s", (n, one, many, text) => {
    expect(countOf(n, one, many)).toBe(text);
  });
});
