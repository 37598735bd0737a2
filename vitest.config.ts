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
 *
 * Every simulated array started without its own `versions` serves what ARRAY_SIM_VERSIONS says (children
 * included): REST 1.x in these two projects, as the suite was written. `npm run test:rest2` runs the same files
 * with every such array flipped to REST 2.0–2.28 (projects rest2-unit and rest2-integration, defined only then).
 */
const INTEGRATION = /from "node:child_process"|compile-fixture|redis-server/;
/**
 * Files about what only REST 2.x arrays have (`*-2x-only.test.ts`) pin their arrays to 2.x themselves: they run in
 * the REST 2.x projects only, rather than twice over the same arrays (CI runs the suite once per generation).
 */
const ONLY_2X = [
  "test/**/*-2x-only.test.ts",
  // Runs every help example on demo arrays it pins to 2.x itself (~90 s): in the 1.x projects a copy of the 2.x run.
  "test/commands/examples-coverage-2x.test.ts",
];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith(".test.ts") ? [join(dir, e.name)] : [],
  );
}

const root = import.meta.dirname;
const REST1 = { ARRAY_SIM_VERSIONS: "1.0-1.12" };
const REST2 = { ARRAY_SIM_VERSIONS: "2.0-2.28" };
/** The 2.x run (npm run test:rest2) names which files: all by default, a directory such as test/commands, or one file. */
const rest2 = process.env["REST2_SUITE"];
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
          exclude: [...integration, ...ONLY_2X],
          pool: "threads",
          isolate: false,
          env: REST1,
        },
      },
      {
        extends: true,
        test: { name: "integration", include: integration, exclude: ONLY_2X, pool: "forks", env: REST1 },
      },
      ...(rest2 === undefined
        ? []
        : [
            {
              extends: true as const,
              test: {
                name: "rest2-unit",
                include: [rest2?.endsWith(".test.ts") ? rest2 : `${rest2 || "test"}/**/*.test.ts`],
                exclude: integration,
                pool: "threads" as const,
                isolate: false,
                env: REST2,
              },
            },
            {
              extends: true as const,
              test: {
                name: "rest2-integration",
                include: integration.filter((f) => f.startsWith(rest2 || "test")),
                pool: "forks" as const,
                env: REST2,
              },
            },
          ]),
    ],
  },
});
