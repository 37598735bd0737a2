/**
 * The fleet section of docs/benchmarks.md (between `<!-- bench:fleet:start -->` and its end marker): how each
 * figure of the fleet benchmark (bench/fleet.ts) grows from the smallest fleet to the largest, as a table and a
 * text chart (bars scaled to each measure's largest value), from bench/results/fleet.json alone.
 */
import type { BenchResult, Figure } from "./result.js";

interface Curve {
  sizes: number[];
  rows: { what: string; unit: Figure["unit"]; values: number[] }[];
}

const BAR = 30;
const count = (n: number) => n.toLocaleString("en-US");

function value(x: number, unit: Figure["unit"]): string {
  if (!Number.isFinite(x)) return "–";
  const digits = unit === "count" || Math.abs(x) >= 100 ? 0 : Math.abs(x) >= 10 ? 1 : 2;
  const n = x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return unit === "count" ? n : `${n} ${unit}`;
}

export function curveOf(r: BenchResult | undefined): Curve | undefined {
  const c = (r as (BenchResult & { curve?: Curve }) | undefined)?.curve;
  return c && Array.isArray(c.sizes) && Array.isArray(c.rows) ? c : undefined;
}

/** The section's body: the table and the chart, or how to produce them when no fleet run is in the results. */
export function fleetSection(result: BenchResult | undefined): string {
  const curve = curveOf(result);
  if (!curve)
    return "No fleet run in bench/results yet: `npm run bench -- --only fleet` (or `npm run bench:fleet`).";
  const head = `| measure | ${curve.sizes.map((n) => `${count(n)} arrays`).join(" | ")} |`;
  const table = [
    head,
    `|---|${curve.sizes.map(() => "---:").join("|")}|`,
    ...curve.rows.map((r) => `| ${r.what} | ${r.values.map((x) => value(x, r.unit)).join(" | ")} |`),
  ];
  const width = Math.max(...curve.sizes.map((n) => count(n).length));
  const chart: string[] = [];
  for (const r of curve.rows) {
    const top = Math.max(...r.values.filter(Number.isFinite), 0);
    chart.push(r.what);
    r.values.forEach((x, i) => {
      const len = top > 0 && Number.isFinite(x) ? Math.max(x > 0 ? 1 : 0, Math.round((x / top) * BAR)) : 0;
      chart.push(`  ${count(curve.sizes[i] ?? 0).padStart(width)} ${"█".repeat(len)} ${value(x, r.unit)}`);
    });
  }
  return [
    `From \`${result?.command}\` (${result?.title}); each bar is scaled to its measure's largest value.`,
    "",
    ...table,
    "",
    "```text",
    ...chart,
    "```",
  ].join("\n");
}
