/**
 * Time from `npm start` to the first answer on the console: `npm start` with one command piped in, the clock
 * stopped when the answer's header line arrives. Side by side in each round, the same with `node
 * dist/src/main.js` started directly (no npm, no build check): what npm and the stale-build check add.
 * Writes bench/results/startup.json.
 * Run: npm run bench:startup [-- --runs 5 --command "/array fs list"]
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { writeResult } from "./report/result.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    command: { type: "string", default: "/array fs list" },
  },
});
const runs = Number(values.runs);
const root = join(import.meta.dirname, "..", "..");

/** Milliseconds from spawning `cmd` to the first answer's header line on its stdout. */
function firstAnswer(cmd: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(cmd, args, { cwd: root, stdio: ["pipe", "pipe", "ignore"] });
    let out = "";
    let answered: number | undefined;
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (answered === undefined && /\n== .+ ==\n/.test(out)) {
        answered = Number(process.hrtime.bigint() - started) / 1e6;
      }
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (answered === undefined) reject(new Error(`no answer (exit ${code}):\n${out}`));
      else resolve(answered);
    });
    child.stdin.end(`${values.command}\n`);
  });
}

const viaNpm: number[] = [];
const direct: number[] = [];
for (let i = 0; i < runs; i++) {
  viaNpm.push(await firstAnswer("npm", ["start", "--silent"]));
  direct.push(await firstAnswer(process.execPath, [join(root, "dist", "src", "main.js")]));
  console.log(
    `run ${i + 1}: npm start ${Math.round(viaNpm[i] ?? 0)} ms, node dist/src/main.js ${Math.round(direct[i] ?? 0)} ms`,
  );
}
writeResult({
  name: "startup",
  title: "Start: `npm start` to the first answer (`bench/startup.ts`)",
  command: "npm run bench:startup",
  figures: [
    {
      what: `start: \`npm start\` to the first answer of \`${values.command}\`, nothing changed since the last build`,
      unit: "ms",
      rounds: viaNpm,
      baseline: { what: "`node dist/src/main.js` started directly", rounds: direct },
      headline: true,
    },
  ],
  notes: [
    "Each round starts the demo console (two simulated arrays, their certificates, the first login and version negotiation) with one command piped in. A start after a source edit first runs one TypeScript build (`tools/build-if-stale.mjs`); that case is not measured here.",
  ],
});
