#!/usr/bin/env node
/**
 * `npm test`: type checking, lint and the test suite side by side rather than one after the other. vitest's
 * output streams as it comes; tsc's and Biome's are held and printed after it, under a heading, when they fail.
 * The run fails when any of the three fails. Arguments go to vitest (`npm test -- test/core`).
 * A full run (no arguments) then runs the suite again with every simulated array speaking only REST 2.x
 * (`npm run test:rest2`'s projects), after the first, so the two generations do not share the cores; its JSON
 * report is test-results/vitest-rest2.json, which .ci/run adds to the first.
 * All three run on the Node that runs this script: under npm, node_modules/.bin/node (Node 24).
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = (...parts) => join(root, "node_modules", ...parts);

function run(name, args, quiet, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env,
      stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit",
    });
    let out = "";
    if (quiet) {
      child.stdout.on("data", (d) => {
        out += d;
      });
      child.stderr.on("data", (d) => {
        out += d;
      });
    }
    child.on("error", (err) => resolve({ name, code: 1, out: String(err) }));
    child.on("close", (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), out }));
  });
}

const vitestArgs = process.argv.slice(2);
const results = await Promise.all([
  run("type checking (tsc)", [bin("typescript", "bin", "tsc"), "-p", "tsconfig.json", "--noEmit"], true),
  run("lint and format (biome check .)", [bin("@biomejs", "biome", "bin", "biome"), "check", "."], true),
  run("tests (vitest)", [bin("vitest", "vitest.mjs"), "run", ...vitestArgs], false),
]);
if (vitestArgs.length === 0) {
  const rest2 = ["--project", "rest2-unit", "--project", "rest2-integration"];
  results.push(
    await run(
      "tests on REST 2.x (vitest, every simulated array on 2.0-2.28)",
      [bin("vitest", "vitest.mjs"), "run", ...rest2, "--outputFile.json=test-results/vitest-rest2.json"],
      false,
      { ...process.env, REST2_SUITE: "" },
    ),
  );
}
for (const r of results.slice(0, 2))
  if (r.code !== 0) process.stdout.write(`\n${r.name} failed:\n${r.out}\n`);
process.stdout.write(`\n${results.map((r) => `${r.name}: ${r.code === 0 ? "ok" : "FAILED"}`).join("\n")}\n`);
process.exit(results.find((r) => r.code !== 0)?.code ?? 0);
