/**
 * The JSON result a benchmark writes to bench/results/<name>.json, which the report (bench/report/write.ts)
 * assembles into docs/benchmarks.md: each figure measured over rounds (median and spread), with its baseline
 * measured side by side where there is one, and its goal.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface Figure {
  /** What was measured, as a reader says it. */
  what: string;
  unit: "ms" | "KiB" | "MiB" | "s" | "count" | "%" | "req/s";
  /** One value per round. */
  rounds: number[];
  /** The same measured side by side in each round (a raw call, one array…), for the ratio. */
  baseline?: { what: string; rounds: number[] };
  /** The goal, as text ("≤ 25 ms"), and whether the median meets it (see `Goal`). */
  goal?: Goal;
  /** Shown in the summary (and the README) even without a goal; figures with a goal always are. */
  headline?: boolean;
}

export interface BenchResult {
  name: string;
  title: string;
  /** The command that reproduces it. */
  command: string;
  figures: Figure[];
  notes?: string[];
}

/**
 * A goal. With `check`, the report decides met or missed from the figure itself (`goalMet`), whatever `met`
 * says; `met` is what the bench printed, for goals a single number cannot express (every ack 200…).
 */
export interface Goal {
  text: string;
  met: boolean;
  check?: { of: "median" | "max" | "ratio" | "excess"; op: "<" | "<=" | "="; value: number };
}

/**
 * The number a check reads: the median of the rounds, their maximum, the median over the baseline's median
 * (ratio), or the median minus the baseline's (excess).
 */
export function checkedValue(f: Figure, of: "median" | "max" | "ratio" | "excess"): number {
  if (of === "max") return Math.max(...f.rounds);
  const m = median(f.rounds);
  const base = median(f.baseline?.rounds ?? []);
  return of === "ratio" ? m / base : of === "excess" ? m - base : m;
}

/** Whether a figure meets its goal, computed from its rounds when the goal has a check. */
export function goalMet(f: Figure): boolean | undefined {
  if (f.goal === undefined) return undefined;
  const c = f.goal.check;
  if (c === undefined) return f.goal.met;
  const x = checkedValue(f, c.of);
  if (!Number.isFinite(x)) return false;
  return c.op === "<" ? x < c.value : c.op === "<=" ? x <= c.value : x === c.value;
}

/** `f` with a checked goal: `goal(fig, "<", 10, "< 10 %")`; `of` defaults to the median. */
export function withGoal(
  f: Figure,
  op: "<" | "<=" | "=",
  value: number,
  text: string,
  of: "median" | "max" | "ratio" | "excess" = "median",
): Figure {
  const out: Figure = { ...f, goal: { text, met: false, check: { of, op, value } } };
  return { ...out, goal: { text, met: goalMet(out) === true, check: { of, op, value } } };
}

export const RESULTS_DIR = "bench/results";

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
}

export function writeResult(result: BenchResult, dir = RESULTS_DIR): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${result.name}.json`);
  writeFileSync(path, `${JSON.stringify(result, null, 2)}\n`);
  return path;
}
