import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Two projects, sorted by what a file imports (read here, so a new file lands in the right one by itself):
 * - integration: files that start child processes (the bot, compiled fixtures, redis-server, the Python SDK).
 *   Forks, isolated: each file's children and servers belong to one worker process of its own.
 * - unit: everything else, in-process servers included (the simulator over HTTPS, Bolt's receivers, the fake
 *   Slack Web API, all on loopback ports of their own). Threads without isolation: a worker
 *   imports the command registry and the simulator once for all its files instead of once per file, which was
 *   most of the suite's time. The sources keep no process-wide state (own metric registries, no global
 *   dispatcher, no process listeners), so files cannot leak into each other.
 * On two cores vitest would start one worker; most integration time is waiting on sockets and children, so
 * three overlap it.
 */
const INTEGRATION = /from "node:child_process"|compile-fixture|redis-server/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith(".test.ts") ? [join(dir, e.name)] : [],
  );
}

const root = import.meta.dirname;
const integration = testFiles(join(root, "test"))
  .filter((f) => INTEGRATION.test(readFileSync(f, "utf8")))
  .map((f) => relative(root, f));

export default defineConfig({
  test: {
    environment: "node",
    // Property tests: a fixed seed under CI, a new one per run elsewhere (FUZZ_SEED replays one).
    setupFiles: ["test/setup/fuzz-seed.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    maxWorkers: 3,
    allowOnly: false,
    passWithNoTests: false,
    // The JSON report is what .ci/run counts for its closing "N passed, N failed" line.
    reporters: ["default", "json"],
    outputFile: { json: "test-results/vitest.json" },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: integration,
          pool: "threads",
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: "integration", include: integration, pool: "forks" },
      },
    ],
  },
});
