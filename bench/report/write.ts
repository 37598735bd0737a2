/**
 * Assembles docs/benchmarks.md from the JSON results in bench/results (every bench that writes one, see
 * result.ts) and the raw output of the last `npm run bench`, then copies its summary table into README.md.
 * Only the text between `<!-- bench:NAME:start -->` and `<!-- bench:NAME:end -->` markers is rewritten:
 * sections other people write by hand stay as they are. Every row comes from a result file of a bench listed in
 * bench/benches.ts (files of anything else are ignored); nothing is typed by hand. The summary holds the figures
 * with a goal or marked `headline`; the full tables below it hold every figure. A goal's met or missed is
 * computed from the figure (`goalMet`), and a missed one is printed as **not met**.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { BENCHES } from "../benches.js";
import { fleetSection } from "./fleet-section.js";
import { type BenchResult, type Figure, goalMet, median } from "./result.js";

export interface RunRecord {
  name: string;
  command: string;
  exitCode: number | null;
  seconds: number;
  output: string;
}

export interface ReportInput {
  results: BenchResult[];
  runs: RunRecord[];
  machine: string;
  /** The load average over 1, 5 and 15 min when the report was written: a shared machine makes figures noisy. */
  load?: string;
  node: string;
  date: string;
}

const fmt = (x: number, unit: Figure["unit"]): string => {
  if (!Number.isFinite(x)) return "–";
  const digits = unit === "count" ? 0 : Math.abs(x) >= 100 ? 0 : Math.abs(x) >= 10 ? 1 : 2;
  const n = x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return unit === "count" ? n : `${n} ${unit}`;
};

export function figureCells(f: Figure): { result: string; spread: string; ratio: string } {
  const m = median(f.rounds);
  const spread =
    f.rounds.length > 1
      ? `${fmt(Math.min(...f.rounds), f.unit)} – ${fmt(Math.max(...f.rounds), f.unit)} over ${f.rounds.length} rounds`
      : "1 round";
  const base = f.baseline ? median(f.baseline.rounds) : undefined;
  const ratio = base ? `${(m / base).toFixed(2)}× ${f.baseline?.what} (${fmt(base, f.unit)})` : "";
  return { result: fmt(m, f.unit), spread, ratio };
}

/** Replaces the text between a marker pair, or appends the block (with its markers) when there is none. */
export function replaceBlock(text: string, name: string, body: string): string {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const block = `${start}\n${body.trim()}\n${end}`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i >= 0 && j > i) return text.slice(0, i) + block + text.slice(j + end.length);
  return `${text.trimEnd()}\n\n${block}\n`;
}

export function blockOf(text: string, name: string): string | undefined {
  const start = `<!-- bench:${name}:start -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(`<!-- bench:${name}:end -->`);
  return i >= 0 && j > i ? text.slice(i + start.length, j).trim() : undefined;
}

const goalCell = (f: Figure): string =>
  f.goal ? `${f.goal.text}: ${goalMet(f) ? "met" : "**not met**"}` : "";

function summaryTable(input: ReportInput): string {
  const rows = input.results.flatMap((r) =>
    r.figures
      .filter((f) => f.goal !== undefined || f.headline === true)
      .map((f) => {
        const c = figureCells(f);
        const goal = f.goal ? ` (goal ${goalCell(f)})` : "";
        return `| ${f.what} | \`${r.command}\` | ${c.result}${c.ratio ? `; ${c.ratio}` : ""}${goal} |`;
      }),
  );
  return ["| what | command | result |", "|---|---|---|", ...rows].join("\n");
}

function generated(input: ReportInput): string {
  const out = [
    `Last \`npm run bench\`: ${input.date} on ${input.machine}${input.load ? ` (load average ${input.load} over 1, 5, 15 min at the end)` : ""}, Node ${input.node}. Each figure is the median over its`,
    "rounds with the spread (min – max); ratios are to a baseline measured side by side in the same rounds.",
    "",
  ];
  for (const r of input.results) {
    out.push(`### ${r.title}`, "", `Reproduce: \`${r.command}\``, "");
    out.push("| measure | median | spread | vs baseline | goal |", "|---|---|---|---|---|");
    for (const f of r.figures) {
      const c = figureCells(f);
      out.push(`| ${f.what} | ${c.result} | ${c.spread} | ${c.ratio} | ${goalCell(f)} |`);
    }
    out.push("", ...(r.notes ?? []).map((n) => `${n}\n`));
  }
  if (input.runs.length > 0) {
    out.push("### Raw output of every benchmark in the run", "");
    for (const run of input.runs) {
      const status = run.exitCode === 0 ? "" : ` — **exit ${run.exitCode}**`;
      out.push(
        `<details><summary><code>${run.command}</code> (${run.seconds.toFixed(1)} s${status})</summary>`,
        "",
      );
      out.push("```text", run.output.trimEnd(), "```", "", "</details>", "");
    }
  }
  return out.join("\n");
}

/** Rewrites the generated blocks of `docs` and `readme` (texts); returns both. */
export function renderReport(
  input: ReportInput,
  docs: string,
  readme: string,
): { docs: string; readme: string } {
  const table = summaryTable(input);
  let d = replaceBlock(docs, "summary", table);
  // The fleet section is filled where the docs hold its markers (docs/benchmarks.md), never appended.
  if (blockOf(d, "fleet") !== undefined)
    d = replaceBlock(d, "fleet", fleetSection(input.results.find((r) => r.name === "fleet")));
  d = replaceBlock(d, "generated", generated(input));
  return { docs: d, readme: replaceBlock(readme, "table", table) };
}

export function loadInput(dir: string, date = new Date()): ReportInput {
  const files = existsSync(dir) ? readdirSync(dir).sort() : [];
  const json = (f: string) => JSON.parse(readFileSync(join(dir, f), "utf8")) as unknown;
  const results = files
    .filter((f) => f.endsWith(".json") && !f.endsWith(".run.json"))
    .map(json)
    .filter((r): r is BenchResult => Array.isArray((r as BenchResult).figures))
    .filter((r) => BENCHES.some((b) => b.name === r.name));
  const runs = files
    .filter((f) => f.endsWith(".run.json"))
    .map((f) => json(f) as RunRecord)
    .filter((r) => BENCHES.some((b) => b.name === r.name));
  const cpu = cpus();
  return {
    results,
    runs,
    machine: `${cpu.length} × ${cpu[0]?.model.trim() ?? "unknown CPU"}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    load: loadavg()
      .map((x) => x.toFixed(1))
      .join(", "),
    node: process.version,
    date: date
      .toISOString()
      .replace(/\.\d+Z$/, " UTC")
      .replace("T", " "),
  };
}

export function writeReport(
  dir = "bench/results",
  docsPath = "docs/benchmarks.md",
  readmePath = "README.md",
): void {
  const out = renderReport(loadInput(dir), readFileSync(docsPath, "utf8"), readFileSync(readmePath, "utf8"));
  writeFileSync(docsPath, out.docs);
  writeFileSync(readmePath, out.readme);
}
