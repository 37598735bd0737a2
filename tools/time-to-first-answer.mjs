#!/usr/bin/env node
/**
 * Time from `npm start` to the first answer on the console: starts `npm start` with one command piped in, and
 * stops the clock when the answer's header line arrives. Runs a few times and prints each run and the median.
 * Usage: node tools/time-to-first-answer.mjs [runs] [command]   (default: 5 runs of /array fs list)
 */
import { spawn } from "node:child_process";

const runs = Number(process.argv[2] ?? 5);
const command = process.argv[3] ?? "/array fs list";
const root = new URL("..", import.meta.url).pathname;

function once() {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn("npm", ["start", "--silent"], { cwd: root, stdio: ["pipe", "pipe", "ignore"] });
    let out = "";
    let answered;
    child.stdout.on("data", (d) => {
      out += d.toString();
      if (answered === undefined && /\n== .+ ==\n/.test(out)) {
        answered = Number(process.hrtime.bigint() - started) / 1e6;
      }
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const total = Number(process.hrtime.bigint() - started) / 1e6;
      if (answered === undefined) reject(new Error(`no answer (exit ${code}):\n${out}`));
      else resolve({ answered, total });
    });
    child.stdin.end(`${command}\n`);
  });
}

const results = [];
for (let i = 0; i < runs; i++) {
  const r = await once();
  results.push(r);
  console.log(
    `run ${i + 1}: first answer after ${Math.round(r.answered)} ms (process done after ${Math.round(r.total)} ms)`,
  );
}
const sorted = results.map((r) => r.answered).sort((a, b) => a - b);
console.log(
  `median time to first answer: ${Math.round(sorted[Math.floor(sorted.length / 2)])} ms over ${runs} runs`,
);
