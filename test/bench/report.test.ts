/**
 * The benchmark report generator: it rewrites only its marked blocks (hand-written sections stay, other
 * engineers' included), puts every JSON figure with median, spread, ratio and goal into the summary (no row
 * typed by hand), decides a checked goal from the figure itself, and the README table is exactly the summary
 * of docs/benchmarks.md. The repository's own files carry the markers.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type BenchResult, withGoal } from "../../bench/report/result.js";
import { blockOf, type ReportInput, renderReport } from "../../bench/report/write.js";

const result: BenchResult = {
  name: "e2e",
  title: "End to end",
  command: "npm run bench:e2e",
  figures: [
    { what: "ack p99", unit: "ms", rounds: [12, 9, 30], goal: { text: "≤ 25 ms", met: true } },
    { what: "detail only", unit: "ms", rounds: [5] },
    {
      what: "fs list",
      unit: "ms",
      rounds: [2, 3, 4],
      baseline: { what: "raw call", rounds: [1, 1.5, 2] },
      headline: true,
    },
  ],
};
const input: ReportInput = {
  results: [result],
  runs: [{ name: "e2e", command: "node dist/bench/e2e.js", exitCode: 0, seconds: 3.2, output: "raw lines" }],
  machine: "2 × Test CPU, 4.0 GiB",
  node: "v20.20.2",
  date: "2026-11-24 18:45:00 UTC",
};
const docs = [
  "# Benchmarks",
  "",
  "Intro written by hand.",
  "<!-- bench:summary:start -->",
  "old summary",
  "<!-- bench:summary:end -->",
  "",
  "## Store (added by another engineer)",
  "Their own prose and table.",
].join("\n");
const readme = "# x\n\n<!-- bench:table:start -->\nold\n<!-- bench:table:end -->\n\n## After\n";

describe("benchmark report", () => {
  it("rewrites only its blocks and keeps hand-written sections", () => {
    const out = renderReport(input, docs, readme);
    expect(out.docs).toContain("Intro written by hand.");
    expect(out.docs).toContain("## Store (added by another engineer)\nTheir own prose and table.");
    expect(out.docs).not.toContain("old summary");
    expect(out.docs).toContain("2 × Test CPU, 4.0 GiB, Node v20.20.2");
    expect(out.docs).toContain("raw lines");
    // Idempotent: a second run changes nothing.
    expect(renderReport(input, out.docs, out.readme)).toEqual(out);
  });

  it("shows median, spread, ratio and goal, and the README table is the summary", () => {
    const out = renderReport(input, docs, readme);
    const summary = blockOf(out.docs, "summary") ?? "";
    expect(summary).toContain("| ack p99 | `npm run bench:e2e` | 12.0 ms (goal ≤ 25 ms: met) |");
    expect(summary).toContain("| fs list | `npm run bench:e2e` | 3.00 ms; 2.00× raw call (1.50 ms) |");
    expect(out.docs).toContain("| ack p99 | 12.0 ms | 9.00 ms – 30.0 ms over 3 rounds |");
    // Only figures with a goal or marked headline reach the summary; the full table has them all.
    expect(summary).not.toContain("detail only");
    expect(out.docs).toContain("| detail only | 5.00 ms |");
    expect(blockOf(out.readme, "table")).toBe(summary);
    expect(out.readme).toContain("## After");
  });

  it("the repository's docs and README carry the markers the generator fills", () => {
    const docsFile = readFileSync(new URL("../../docs/benchmarks.md", import.meta.url), "utf8");
    const readmeFile = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    for (const name of ["summary", "fleet", "generated"]) expect(blockOf(docsFile, name), name).toBeDefined();
    // No rows kept by hand: the block that held them is gone.
    expect(blockOf(docsFile, "manual")).toBeUndefined();
    expect(blockOf(readmeFile, "table")).toBeDefined();
  });

  it("prints a missed goal as missed, in the summary, the README table and the full table", () => {
    const missed: BenchResult = {
      name: "client",
      title: "Client",
      command: "npm run bench:client",
      figures: [
        withGoal({ what: "pool overhead", unit: "%", rounds: [13, 9, 15.6] }, "<", 10, "< 10 %"),
        // What the bench claimed does not count: the report checks the figure.
        {
          what: "list vs raw",
          unit: "ms",
          rounds: [1.2],
          baseline: { what: "raw", rounds: [0.6] },
          goal: { text: "≤ raw + 0.3 ms", met: true, check: { of: "excess", op: "<", value: 0.3 } },
        },
        withGoal({ what: "logins", unit: "count", rounds: [1] }, "=", 1, "= 1"),
      ],
    };
    const out = renderReport({ ...input, results: [missed] }, docs, readme);
    const summary = blockOf(out.docs, "summary") ?? "";
    expect(summary).toContain(
      "| pool overhead | `npm run bench:client` | 13.0 % (goal < 10 %: **not met**) |",
    );
    expect(summary).toContain("(goal ≤ raw + 0.3 ms: **not met**) |");
    expect(summary).toContain("| logins | `npm run bench:client` | 1 (goal = 1: met) |");
    expect(blockOf(out.readme, "table")).toContain("13.0 % (goal < 10 %: **not met**)");
    expect(out.docs).toContain(
      "| pool overhead | 13.0 % | 9.00 % – 15.6 % over 3 rounds |  | < 10 %: **not met** |",
    );
  });

  it("draws the fleet section from the fleet result: a table and a chart across the sizes, its goals in the summary", () => {
    const fleet = {
      name: "fleet",
      title: "Fleet scale",
      command: "npm run bench:fleet",
      figures: [
        withGoal(
          { what: "fleet: 1,000 arrays, load: read p99", unit: "ms", rounds: [1200] },
          "<",
          1000,
          "< 1 s",
        ),
      ],
      curve: {
        sizes: [10, 200, 1000],
        rows: [{ what: "load: read p99", unit: "ms", values: [100, 300, 1200] }],
      },
    } as BenchResult;
    const withMarkers = `${docs}\n\n<!-- bench:fleet:start -->\nold fleet\n<!-- bench:fleet:end -->\n`;
    const out = renderReport({ ...input, results: [result, fleet] }, withMarkers, readme);
    const section = blockOf(out.docs, "fleet") ?? "";
    expect(section).toContain("| measure | 10 arrays | 200 arrays | 1,000 arrays |");
    expect(section).toContain("| load: read p99 | 100 ms | 300 ms | 1,200 ms |");
    expect(section).toContain(`     10 ${"█".repeat(3)} 100 ms`);
    expect(section).toContain(`  1,000 ${"█".repeat(30)} 1,200 ms`);
    expect(blockOf(out.docs, "summary")).toContain(
      "fleet: 1,000 arrays, load: read p99 | `npm run bench:fleet` | 1,200 ms (goal < 1 s: **not met**)",
    );
    // Docs without the markers get no fleet section appended.
    expect(renderReport(input, docs, readme).docs).not.toContain("bench:fleet");
  });
});
