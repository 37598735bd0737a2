/**
 * Every versioned endpoint-method of the 1.12 table (read from the endpoint table, src/rest-spec/endpoints.ts)
 * is reached by some example `/array help` shows, run for real on the console's demo arrays: each example runs
 * on a fresh pair of demo arrays, through its gate as a person passes it, and the endpoint-methods the arrays
 * answered with a 2xx are collected (an example the demo has already done runs on two empty arrays of the same
 * names). None is left out: a keytab file, which chat must not carry, is typed in the private dialog.
 */
import { describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { DEMO_ARRAYS } from "../../src/local/demo.js";
import { ENDPOINTS } from "../../src/rest-spec/endpoints.js";
import { startHarness } from "../core/harness.js";
import { key1x } from "../helpers/wire.js";
import { DONE_ON_DEMO, runThroughGates, startDemoHarness } from "./demo-examples.js";

/**
 * An example the demo has already done (its two arrays are connected) runs where it has not: on two empty arrays
 * of the same names.
 */
const startUndone = () =>
  startHarness({
    arrays: DEMO_ARRAYS.map((a) => ({ name: a.name, tags: [...a.tags], scenario: "empty" as const })),
    config: { channels: { default_array: DEMO_ARRAYS[0].name } },
  });

const key = (e: { method: string; path: string }) => `${e.method} ${e.path}`;
const VERSIONED = ENDPOINTS.filter((e) => e.versioned).map(key);

const registry = createRegistry(RESOURCES);
const examples = [...new Set(registry.all().flatMap((e) => e.command.examples))];

describe("every endpoint-method of the 1.12 table is reached by a help example on the demo arrays", () => {
  const reached = new Map<string, string>();

  test("each example, run for real, adds what the demo arrays answered", { timeout: 600_000 }, async () => {
    for (const example of examples) {
      const h = example in DONE_ON_DEMO ? await startUndone() : await startDemoHarness();
      try {
        for (const sim of h.sims.values()) sim.control.resetStats();
        await runThroughGates(h, example);
        for (const sim of h.sims.values()) {
          for (const r of sim.control.stats().recent) {
            const k = key1x(r.method, r.path);
            if (k && typeof r.outcome === "number" && r.outcome < 300) {
              if (!reached.has(k)) reached.set(k, example);
            }
          }
        }
      } finally {
        await h.close();
      }
    }
    const missing = VERSIONED.filter((k) => !reached.has(k));
    const covered = VERSIONED.filter((k) => reached.has(k)).length;
    console.log(
      `help-example coverage on the demo: ${covered}/${VERSIONED.length} endpoint-methods ` +
        `(${((100 * covered) / VERSIONED.length).toFixed(1)} %) from ${examples.length} examples; ` +
        `missing: ${missing.join(", ") || "none"}`,
    );
    expect(missing).toEqual([]);
  });
});
