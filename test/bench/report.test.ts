/**
 * The benchmark report generator: it rewrites only its marked blocks (hand-written sections stay, other
 * engineers' included), puts every JSON figure with median, spread, ratio and goal into the summary, joins the
 * hand-kept rows, and the README table is exactly the summary of docs/benchmarks.md. The repository's own
 * files carry the markers.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { BenchResult } from "../../bench/report/result.js";
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
  "<!-- bench:manual:start -->",
  "| what | command | result |",
  "|---|---|---|",
  "| store: 10,000 writes | `npm run bench:store` | 3.1 s |",
  "<!-- bench:manual:end -->",
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
    expect(blockOf(out.docs, "manual")).toBe(blockOf(docs, "manual"));
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
    expect(summary).toContain("| store: 10,000 writes | `npm run bench:store` | 3.1 s |");
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
    for (const name of ["summary", "manual", "generated"])
      expect(blockOf(docsFile, name), name).toBeDefined();
    expect(blockOf(readmeFile, "table")).toBeDefined();
  });
});
