/**
 * `npm run bench:fleet`: how the bot's costs grow with the fleet, from 10 to 200 to 1,000 arrays (`--sizes`). At
 * each size, in fresh processes one after another: the load test (`bench/load.ts`, the bot in its own process),
 * alert polling (`bench/alerts-polling.ts`) and `space --array all` with 100 ms per array
 * (`bench/fleet-fanout.ts`). One result (bench/results/fleet.json): a figure per measure and size, the curve the
 * report draws as a table and a chart (bench/report/fleet-section.ts), and the goals at the largest size,
 * each evaluated from the run that printed it.
 *   npm run bench:fleet [-- --sizes 10,200,1000 --load-seconds 600 --small-load-seconds 60 --cycles 10]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { HEAP_OPTIONS, MALLOC_ENV } from "../src/ops/heap-options.js";
import type { FanOutMeasure } from "./fleet-fanout.js";
import type { LoadReport } from "./load/load-types.js";
import { type BenchResult, type Figure, median, withGoal, writeResult } from "./report/result.js";

/** One measure across the sizes: what the report's table and chart show. */
export interface CurveRow {
  what: string;
  unit: Figure["unit"];
  values: number[];
}
export interface FleetResult extends BenchResult {
  curve: { sizes: number[]; rows: CurveRow[] };
}

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "10,200,1000" },
    "load-seconds": { type: "string", default: "600" },
    "small-load-seconds": { type: "string", default: "60" },
    cycles: { type: "string", default: "10" },
  },
});
const sizes = values.sizes.split(",").map(Number);
if (sizes.some((n) => !Number.isInteger(n) || n < 1)) {
  console.error(`--sizes: \`${values.sizes}\` is not a list of array counts (10,200,1000)`);
  process.exit(2);
}
const largest = Math.max(...sizes);
const here = new URL(".", import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), "bench-fleet-"));

function run(script: string, args: string[], heap: boolean): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ["--expose-gc", ...(heap ? HEAP_OPTIONS : []), join(here, script), ...args],
      {
        stdio: ["ignore", "inherit", "inherit"],
        env: { ...process.env, ...(heap ? MALLOC_ENV : {}) },
      },
    );
    child.on("close", resolve);
  });
}
const json = <T>(path: string): T => JSON.parse(readFileSync(path, "utf8")) as T;

interface AtSize {
  n: number;
  load: LoadReport;
  loadSeconds: number;
  /** floorPct: the bare floor of the same polling (a resumed TLS connect and one GET per array), same run. */
  polling: { cpuPct: number; rssMiB: number; floorPct: number };
  fanOut: FanOutMeasure;
}
const at: AtSize[] = [];
try {
  for (const n of sizes) {
    const loadSeconds = Number(n === largest ? values["load-seconds"] : values["small-load-seconds"]);
    console.log(`\n== ${n} arrays: load for ${loadSeconds} s`);
    await run(
      "load.js",
      ["--arrays", String(n), "--seconds", String(loadSeconds), "--out", join(tmp, `load-${n}.json`)],
      false,
    );
    console.log(`\n== ${n} arrays: alert polling`);
    const pollDir = join(tmp, `alerts-${n}`);
    await run(
      "alerts-polling.js",
      ["--arrays", String(n), "--cycles", values.cycles, "--out-dir", pollDir],
      true,
    );
    console.log(`\n== ${n} arrays: space --array all, 100 ms per array`);
    await run(
      "fleet-fanout.js",
      ["--arrays", String(n), "--latency", "100", "--out", join(tmp, `fanout-${n}.json`)],
      false,
    );
    const polling = json<BenchResult>(join(pollDir, "alerts-polling.json")).figures;
    at.push({
      n,
      loadSeconds,
      load: json<{ report: LoadReport }>(join(tmp, `load-${n}.json`)).report,
      polling: {
        cpuPct: median(polling[0]?.rounds ?? []),
        rssMiB: median(polling[1]?.rounds ?? []),
        floorPct: median(polling[2]?.rounds ?? []),
      },
      fanOut: json<FanOutMeasure>(join(tmp, `fanout-${n}.json`)),
    });
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

/** A p99 over no samples is no figure (the load reports 0): shown as "–", and a goal on it is not met. */
const p99 = (l: { n: number; p99: number }): number => (l.n > 0 ? l.p99 : Number.NaN);
const rows: CurveRow[] = [
  { what: "load: read p99", unit: "ms", values: at.map((a) => p99(a.load.latencyMs.read)) },
  { what: "load: approve p99", unit: "ms", values: at.map((a) => p99(a.load.latencyMs.approve)) },
  {
    what: "load: bot RSS after warm-up",
    unit: "MiB",
    values: at.map((a) => a.load.memory.rssAfterWarmUpMiB),
  },
  { what: "load: requests left unanswered", unit: "count", values: at.map((a) => a.load.unanswered) },
  { what: "alerts: polling CPU (% of a core)", unit: "%", values: at.map((a) => a.polling.cpuPct) },
  { what: "alerts: peak RSS while polling", unit: "MiB", values: at.map((a) => a.polling.rssMiB) },
  {
    what: "alerts: bare floor of that polling (a resumed TLS connect and one GET per array)",
    unit: "%",
    values: at.map((a) => a.polling.floorPct),
  },
  { what: "space --array all, warm (100 ms per array)", unit: "ms", values: at.map((a) => a.fanOut.warmMs) },
  {
    what: "space --array all, cold (every array logs in)",
    unit: "ms",
    values: at.map((a) => a.fanOut.coldMs),
  },
  {
    what: "peak sockets open to the arrays (fan-out)",
    unit: "count",
    values: at.map((a) => a.fanOut.peakSockets),
  },
];
const big = at.find((a) => a.n === largest) as AtSize;
const l = big.load;
const tenMinutes = big.loadSeconds >= 600;
const of = `${largest.toLocaleString("en-US")} arrays`;
const one = (what: string, unit: Figure["unit"], x: number): Figure => ({ what, unit, rounds: [x] });
const goals: Figure[] = [
  withGoal(
    one(`fleet: ${of}, load for ${big.loadSeconds} s: requests left unanswered`, "count", l.unanswered),
    "=",
    0,
    "= 0",
  ),
  withGoal(
    one(`fleet: ${of}, load: effects applied twice`, "count", l.reconciliation.appliedTwice.length),
    "=",
    0,
    "= 0",
  ),
  withGoal(one(`fleet: ${of}, load: effects lost`, "count", l.reconciliation.lost.length), "=", 0, "= 0"),
  withGoal(one(`fleet: ${of}, load: approve p99`, "ms", p99(l.latencyMs.approve)), "<", 1000, "< 1 s"),
  withGoal(
    one(
      `fleet: ${of}, load: approve p99, approvals that met no Slack 429`,
      "ms",
      p99(l.approveStepsMs.unthrottled),
    ),
    "<",
    500,
    "< 500 ms",
  ),
  withGoal(one(`fleet: ${of}, load: read p99`, "ms", p99(l.latencyMs.read)), "<", 1000, "< 1 s"),
  withGoal(
    one(`fleet: ${of}, load: bot RSS after warm-up`, "MiB", l.memory.rssAfterWarmUpMiB),
    "<=",
    256,
    "≤ 256 MiB",
  ),
  // The growth goal is over the last 5 minutes of a 10-minute run; a shorter run shows its figure without it.
  tenMinutes
    ? withGoal(
        one(
          `fleet: ${of}, load: bot RSS growth over the last 5 minutes`,
          "MiB",
          l.memory.rssGrowthLastHalfMiB,
        ),
        "<",
        10,
        "< 10 MiB",
      )
    : {
        ...one(
          `fleet: ${of}, load: bot RSS growth over the last half (${big.loadSeconds} s run; the goal is for 10 minutes)`,
          "MiB",
          l.memory.rssGrowthLastHalfMiB,
        ),
        headline: true,
      },
  withGoal(
    one(`fleet: ${of}, alert polling every 30 s: CPU`, "%", big.polling.cpuPct),
    "<",
    3,
    "< 3 % of a core",
  ),
  one(
    `fleet: ${of}, alert polling every 30 s: the bare floor in the same run (a resumed TLS connect and one GET per array through undici, nothing else)`,
    "%",
    big.polling.floorPct,
  ),
  withGoal(one(`fleet: ${of}, alert polling: peak RSS`, "MiB", big.polling.rssMiB), "<", 256, "< 256 MiB"),
  withGoal(
    one(`fleet: ${of}, space --array all (100 ms each, warm): answered in`, "ms", big.fanOut.warmMs),
    "<",
    2000,
    "< 2 s",
  ),
  withGoal(
    one(
      `fleet: ${of}, space --array all: peak open sockets (bound ${big.fanOut.bound})`,
      "count",
      big.fanOut.peakSockets,
    ),
    "<=",
    big.fanOut.bound,
    `≤ ${big.fanOut.bound} (the bound)`,
  ),
];
const perSize: Figure[] = at.flatMap((a) =>
  rows.map((r) =>
    one(
      `fleet: ${r.what} at ${a.n.toLocaleString("en-US")} arrays`,
      r.unit,
      r.values[at.indexOf(a)] ?? Number.NaN,
    ),
  ),
);
const result: FleetResult = {
  name: "fleet",
  title: `Fleet scale (\`bench/fleet.ts\`): ${sizes.join(", ")} arrays`,
  command: "npm run bench:fleet",
  figures: [...goals, ...perSize],
  notes: [
    `At each size, in fresh processes: the load test for ${values["small-load-seconds"]} s (${values["load-seconds"]} s at ${of}), alert polling for ${values.cycles} cycles, and two runs of \`space --array all\` with 100 ms per array (cold, then warm). The idle cost per array and the ack floor are the fleet-idle and e2e benchmarks' rows.`,
  ],
  curve: { sizes, rows },
};
writeResult(result);
console.log(`\nwrote bench/results/fleet.json (${sizes.join(", ")} arrays)`);
