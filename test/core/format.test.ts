import { describe, expect, test } from "vitest";
import { describeStateChange, fingerprintOf } from "../../src/core/approvals/fingerprint.js";
import { formatPlannedRequest } from "../../src/core/approvals/gate-messages.js";
import {
  formatDay,
  formatRelative,
  formatTimestamp,
  formatWhen,
} from "../../src/core/presentation/format-time.js";
import { toCsv, truncatedTable } from "../../src/core/presentation/table.js";

const T = Date.UTC(2026, 10, 22, 14, 2);

describe("times", () => {
  test("absolute in UTC by default, or in the configured zone", () => {
    expect(formatTimestamp(T)).toBe("2026-11-22 14:02 UTC");
    expect(formatTimestamp(T, "Europe/Berlin")).toBe("2026-11-22 15:02 GMT+1");
  });
  test("relative, both directions", () => {
    expect(formatRelative(T - 3 * 3_600_000 - 5 * 60_000, T)).toBe("3h 5m ago");
    expect(formatRelative(T + 15 * 60_000, T)).toBe("in 15m");
    expect(formatRelative(T + 10_000, T)).toBe("just now");
    expect(formatWhen(T, T + 86_400_000)).toBe("2026-11-22 14:02 UTC (1d ago)");
    // Past two days, the precision a reader uses: never "900d 37s ago".
    expect(formatRelative(T - 900 * 86_400_000 - 37_000, T)).toBe("2 years ago");
    expect(formatRelative(T - 12 * 86_400_000 - 5 * 3_600_000, T)).toBe("12 days ago");
    expect(formatRelative(T - 150 * 86_400_000, T)).toBe("4 months ago");
    expect(formatRelative(T + 40 * 86_400_000, T)).toBe("in 40 days");
  });
  test("values no Date can hold (an array's odd `created`, a forecast centuries out) are shown, not thrown", () => {
    // 8.64e15 + 1 is one past the last instant a Date holds; the array-responses fuzz found it in `fs list`.
    expect(formatTimestamp(8_640_000_000_000_001)).toBe("not a time (8640000000000001)");
    expect(formatTimestamp(Number.NaN, "Europe/Berlin")).toBe("not a time (NaN)");
    expect(formatDay(T)).toBe("2026-11-22");
    expect(formatDay(1e15)).toBe("after 9999-12-31");
    expect(formatDay(Number.POSITIVE_INFINITY)).toBe("not a time (Infinity)");
  });
});

describe("fingerprints", () => {
  test("key order does not matter; any value change does", () => {
    expect(fingerprintOf({ a: 1, b: "x" })).toBe(fingerprintOf({ b: "x", a: 1 }));
    expect(fingerprintOf({ a: 1, b: "x" })).not.toBe(fingerprintOf({ a: 2, b: "x" }));
  });
  test("changes are described in human units", () => {
    expect(
      describeStateChange(
        { used_bytes: 2 ** 40, destroyed: false },
        { used_bytes: 1.5 * 2 ** 40, destroyed: true },
      ),
    ).toEqual(["destroyed: no → yes", "used: 1 TiB → 1.5 TiB"]);
  });
});

describe("tables and requests", () => {
  test("CSV quotes what needs quoting and defuses spreadsheet formulas", () => {
    const cols = [
      { key: "a", label: "A" },
      { key: "b", label: "B" },
    ];
    expect(toCsv(cols, [{ a: 'x,"y"', b: "=cmd()" }])).toBe('A,B\r\n"x,""y""",\'=cmd()\r\n');
  });
  test("truncation keeps 50 rows and attaches every row", () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({ n: `fs${i}` }));
    const out = truncatedTable([{ key: "n", label: "Name" }], rows, { filename: "f.csv", title: "t" });
    expect(out.block.type === "table" && out.block.rows.length).toBe(50);
    expect(out.block.type === "table" && out.block.totalRows).toBe(10_000);
    expect(String(out.attachments[0]?.content).split("\r\n")).toHaveLength(10_002);
  });
  test("planned requests print as the client sends them", () => {
    expect(
      formatPlannedRequest(
        {
          method: "PATCH",
          path: "/file-systems",
          query: { name: "a b", ignore_usage: true },
          body: { provisioned: 1 },
        },
        "1.12",
      ),
    ).toBe('PATCH /api/1.12/file-systems?name=a+b&ignore_usage=true {"provisioned":1}');
  });
});
