/**
 * `npm run bench`: every benchmark of bench/benches.ts in one run, one after another (the machine has two cores;
 * side by side means in the same run on the same machine state, not concurrently), each in its own process.
 * Each writes its figures to bench/results/<name>.json (one that does not counts as failed); its raw output goes
 * to bench/results/<name>.run.json; then docs/benchmarks.md and the README table are regenerated
 * (bench/report/write.ts).
 *   npm run bench [-- --quick] [-- --only client,store]   (--quick: tiny round counts, for developing the report)
 *   npm run bench:report            (regenerate the report from the last results without running anything)
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { HEAP_OPTIONS, MALLOC_ENV } from "../src/ops/heap-options.js";
import { BENCHES } from "./benches.js";
import { RESULTS_DIR } from "./report/result.js";
import { writeReport } from "./report/write.js";

const { values } = parseArgs({
  options: { quick: { type: "boolean", default: false }, only: { type: "string" } },
});
const here = new URL(".", import.meta.url).pathname;

/** The lab alert fixture lives in the shared folder beside the checkout (a worktree sits one level deeper). */
const FIXTURE = ["../shared", "../../shared"]
  .map((d) => join(process.cwd(), d, "data", "lab-array-alerts.json"))
  .find((p) => existsSync(p));

function run(
  script: string,
  args: string[],
  flags: readonly string[],
  env: Readonly<Record<string, string>>,
): Promise<{ code: number | null; output: string; seconds: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--expose-gc", ...flags, script, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
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

const benches = BENCHES.filter((b) => values.only === undefined || values.only.split(",").includes(b.name));
mkdirSync(RESULTS_DIR, { recursive: true });
let failed = 0;
for (const bench of benches) {
  const args = [...bench[values.quick ? "quick" : "full"]];
  if (bench.fixture) {
    if (FIXTURE === undefined) {
      console.log(`\n== ${bench.name}: skipped, no ../shared/data/lab-array-alerts.json beside the checkout`);
      failed++;
      continue;
    }
    args.push(FIXTURE);
  }
  // A result left by an earlier run must not pass for this one's: the report reads whatever is there.
  const resultFile = join(RESULTS_DIR, `${bench.name}.json`);
  rmSync(resultFile, { force: true });
  console.log(`\n== ${bench.name} ${args.join(" ")}`);
  // A benchmark whose process is the bot's runs with the image's settings: V8's heap and glibc's allocator.
  const flags = bench.heap ? HEAP_OPTIONS : [];
  const env = bench.heap ? MALLOC_ENV : {};
  const r = await run(join(here, `${bench.name}.js`), args, flags, env);
  const wrote = existsSync(resultFile);
  if (r.code !== 0 || !wrote) failed++;
  if (!wrote) console.log(`${bench.name} wrote no ${resultFile}: counted as failed`);
  const envText = Object.entries(env)
    .map(([k, v]) => `${k}=${v} `)
    .join("");
  const command = `${envText}node ${flags.map((f) => `${f} `).join("")}dist/bench/${bench.name}.js${args.length ? ` ${args.join(" ")}` : ""}`;
  writeFileSync(
    join(RESULTS_DIR, `${bench.name}.run.json`),
    `${JSON.stringify({ name: bench.name, command, exitCode: r.code, seconds: r.seconds, output: r.output }, null, 2)}\n`,
  );
}
writeReport();
console.log(
  `\nwrote docs/benchmarks.md and the README table (${benches.length} benchmarks, ${failed} failed)`,
);
process.exit(failed === 0 ? 0 : 1);
