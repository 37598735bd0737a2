/**
 * A create answers once: every example of every `create` verb in the registry, run for real on the demo arrays
 * through its gate, answers with no field shown twice (a planned value and the object's own), and with no "Name"
 * field beside a headline that already names the object.
 */
import { expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { messagesOf } from "../core/harness.js";
import { DONE_ON_DEMO, runThroughGates, startDemoHarness } from "./demo-examples.js";

const registry = createRegistry(RESOURCES);
const CREATES = registry
  .all()
  .filter((e) => e.command.verb === "create" && e.command.impact !== undefined)
  .flatMap((e) => e.command.examples.filter((x) => !/\s--dry-run\b/.test(x) && !(x in DONE_ON_DEMO)));

test("create answers show each field once", { timeout: 300_000 }, async () => {
  const repeated: string[] = [];
  let checked = 0;
  for (const example of CREATES) {
    const h = await startDemoHarness();
    try {
      const effects = await runThroughGates(h, example);
      const last = messagesOf(effects).at(-1);
      if (!last || !/^Created /.test(last.text)) continue;
      checked++;
      const labels = last.blocks.flatMap((b) =>
        b.type === "fields" ? b.fields.map((f) => f.label.toLowerCase()) : [],
      );
      const twice = labels.filter((l, i) => labels.indexOf(l) !== i);
      if (twice.length > 0 || labels.includes("name"))
        repeated.push(`${example}: ${[...twice, ...labels.filter((l) => l === "name")].join(", ")}`);
    } finally {
      await h.close();
    }
  }
  expect(repeated).toEqual([]);
  expect(checked).toBeGreaterThan(10);
});
