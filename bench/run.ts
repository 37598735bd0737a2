/**
 * `npm run bench`: every benchmark in one run, one after another (the machine has two cores; side by side
 * means in the same run on the same machine state, not concurrently), each in its own process. Raw output goes
 * to bench/results/<name>.run.json; benchmarks that write a JSON result add their figures; then
 * docs/benchmarks.md and the README table are regenerated (bench/report/write.ts).
 *   npm run bench [-- --quick]      (--quick: tiny round counts, for developing the report)
 *   npm run bench:report            (regenerate the report from the last results without running anything)
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { RESULTS_DIR } from "./report/result.js";
import { writeReport } from "./report/write.js";

const { values } = parseArgs({
  options: { quick: { type: "boolean", default: false }, only: { type: "string" } },
});
const here = new URL(".", import.meta.url).pathname;

/** Arguments per benchmark: the full run, and the quick one. Benchmarks not listed run without arguments. */
const ARGS: Record<string, { full: string[]; quick: string[] }> = {
  simulator: { full: [], quick: ["--requests", "500", "--file-systems", "5000"] },
  client: { full: [], quick: ["--iterations", "100", "--rounds", "2"] },
  commands: { full: [], quick: ["--iterations", "20"] },
  slack: { full: [], quick: ["--iterations", "30"] },
  "alerts-polling": { full: [], quick: ["--arrays", "10", "--cycles", "3"] },
  "alerts-replay": { full: [], quick: [] },
  soak: { full: [], quick: ["--seconds", "10", "--rate", "10", "--warm-up", "4"] },
  e2e: {
    full: [],
    quick: ["--rounds", "2", "--concurrent", "10", "--iterations", "20", "--file-systems", "20000"],
  },
};
const SKIP = new Set(["run", "load", "report"]);

/** The lab alert fixture lives in the shared folder beside the checkout (a worktree sits one level deeper). */
const FIXTURE = ["../shared", "../../shared"]
  .map((d) => join(process.cwd(), d, "data", "lab-array-alerts.json"))
  .find((p) => existsSync(p));
if (FIXTURE !== undefined) ARGS["alerts-replay"] = { full: [FIXTURE], quick: [FIXTURE] };

function run(
  script: string,
  args: string[],
): Promise<{ code: number | null; output: string; seconds: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--expose-gc", script, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => {
      output += d.toString();
      process.stdout.write(d);
    });
    child.stderr.on("data", (d: Buffer) => {
      output += d.toString();
    });
    child.on("close", (code) => resolve({ code, output, seconds: (performance.now() - t0) / 1000 }));
  });
}

const names = readdirSync(here)
  .filter((f) => f.endsWith(".js") && !SKIP.has(f.slice(0, -3)))
  .map((f) => f.slice(0, -3))
  .filter((n) => values.only === undefined || values.only.split(",").includes(n))
  .sort();
mkdirSync(RESULTS_DIR, { recursive: true });
let failed = 0;
for (const name of names) {
  const args = ARGS[name]?.[values.quick ? "quick" : "full"] ?? [];
  const script = join(here, `${name}.js`);
  if (!existsSync(script)) continue;
  console.log(`\n== ${name} ${args.join(" ")}`);
  const r = await run(script, args);
  if (r.code !== 0) failed++;
  const command = `node dist/bench/${name}.js${args.length ? ` ${args.join(" ")}` : ""}`;
  writeFileSync(
    join(RESULTS_DIR, `${name}.run.json`),
    `${JSON.stringify({ name, command, exitCode: r.code, seconds: r.seconds, output: r.output }, null, 2)}\n`,
  );
}
writeReport();
console.log(`\nwrote docs/benchmarks.md and the README table (${names.length} benchmarks, ${failed} failed)`);
process.exit(failed === 0 ? 0 : 1);
