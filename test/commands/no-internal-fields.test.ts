/**
 * No answer shows an array's internal fields (`_as_of`, any `_`-prefixed key): every list and show command of
 * the registry (catalogue and hand-written), run as its help examples run it, on the console's demo arrays.
 * Relation lists count memberships, not objects ("54 snapshot policies" where the array has 3).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { type Harness, messagesOf, textOf } from "../core/harness.js";
import { startDemoHarness } from "./demo-examples.js";

const registry = createRegistry(RESOURCES);
const reads = registry
  .all()
  .filter((e) => /(^| )(list|show)$/.test(e.path) && e.command.impact === undefined)
  .flatMap((e) => e.command.examples.map((ex) => [ex, e.path] as const));

/**
 * An internal key as a field: `_as_of` itself, or the label it reads as (" as of:", a label that starts with
 * the space its underscore became). Object names may start with `_` (`_default_replication_certs`): not fields.
 */
const INTERNAL = /_as_of|(^|\n)\s+[a-z][a-z ]*:\s|(^|\n)\s*as of:/i;

let h: Harness;
beforeAll(async () => {
  h = await startDemoHarness();
});
afterAll(async () => h.close());

describe("internal fields never reach an answer", () => {
  test("the registry has list and show commands to check", () => {
    expect(reads.length).toBeGreaterThan(50);
  });

  test.each(reads)("%s (%s)", async (example) => {
    const effects = await h.run("alice", example);
    const text = textOf(effects);
    expect(text).not.toMatch(INTERNAL);
    for (const m of messagesOf(effects))
      for (const b of m.blocks) {
        if (b.type === "table")
          for (const c of b.columns) expect(c.key.replace(/^_array$/, "")).not.toMatch(/^_/);
      }
  });
});

describe("relation lists count memberships", () => {
  test("snapshot policy list counts snapshot–policy memberships, not policies", async () => {
    const headline =
      messagesOf(await h.run("carol", "snapshot policy list --array fb-lab-01"))[0]?.text ?? "";
    const policies = messagesOf(await h.run("carol", "policy list --array fb-lab-01"))[0]?.text ?? "";
    expect(policies).toMatch(/^3 snapshot policies/);
    expect(headline).toMatch(/^\d+ snapshot policy memberships on/);
    expect(headline).not.toMatch(/snapshot policies/);
  });
});
