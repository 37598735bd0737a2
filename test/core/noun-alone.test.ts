/**
 * A resource typed with no verb does the same thing for every resource of the registry: its everyday read
 * (declared default, else list, show or status) when that read changes nothing and needs no argument, else its
 * help listing its verbs, that read first. Never a change.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { createRegistry, verbAlone } from "../../src/core/catalogue/registry.js";
import { startDemoHarness } from "../commands/demo-examples.js";
import { type Harness, messagesOf, textOf } from "./harness.js";

const registry = createRegistry(RESOURCES);
let h: Harness;
beforeAll(async () => {
  // On the test's clock: a read typed twice (diagnose, perf) must not see the arrays' figures move in between.
  h = await startDemoHarness({ simulatorClock: true });
});
afterAll(async () => h.close());

const headline = async (line: string) =>
  messagesOf(await h.run("alice", line))
    .map((m) => m.text)
    .join("\n");

function changes(): string[] {
  return [...h.sims.values()].flatMap((sim) =>
    Object.keys(sim.control.stats().requests).filter((k) => /^(POST|PATCH|DELETE) \/api\/\d/.test(k)),
  );
}

describe("a resource typed alone", () => {
  test.each(registry.resources.map((r) => [r.name, r] as const))("%s", async (name, resource) => {
    for (const sim of h.sims.values()) sim.control.resetStats();
    const alone = await headline(name);
    expect(changes()).toEqual([]);
    expect((await h.store.listOpen()).filter((r) => r.kind === "request")).toEqual([]);
    const verb = verbAlone(resource);
    if (verb !== undefined) {
      expect(alone).toBe(await headline(`${name} ${verb}`));
    } else {
      expect(alone).toBe(`Help for /array ${name}`);
    }
  });

  test("the rule as people meet it: fs lists, api explains, help puts the read first", async () => {
    expect(await headline("fs")).toBe(await headline("fs list"));
    expect(await headline("fs --array fb-dr-01")).toBe(await headline("fs list --array fb-dr-01"));
    // No read without an argument (`api get` needs a path): the help, listing the verbs.
    expect(await headline("api")).toBe("Help for /array api");
    const help = textOf(await h.run("alice", "help fs"));
    expect(help.indexOf("*list*")).toBeGreaterThan(-1);
    expect(help.indexOf("*list*")).toBeLessThan(help.indexOf("*create*"));
  });
});
