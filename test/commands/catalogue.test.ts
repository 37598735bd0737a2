/** The catalogue is valid data: every entry's path is in the endpoint table and the registry accepts it. */
import { describe, expect, test } from "vitest";
import { checkSpecs } from "../../commands/catalogue/generic/derive.js";
import { CATALOGUE } from "../../commands/catalogue/index.js";
import { RESOURCES } from "../../commands/index.js";
import { parseCommandLine, validateArgs } from "../../src/core/parse.js";
import { checkDefinitions, createRegistry } from "../../src/core/registry.js";

describe("catalogue data", () => {
  test("every entry names endpoints of the table and selectors those endpoints take", () => {
    expect(checkSpecs(CATALOGUE)).toEqual([]);
  });

  test("the registry accepts the whole catalogue", () => {
    expect(checkDefinitions(RESOURCES)).toEqual([]);
  });
});

describe("every catalogue example parses and validates", () => {
  const registry = createRegistry(RESOURCES);
  const nouns = new Set(CATALOGUE.map((c) => c.noun));
  const examples = registry
    .all()
    .filter((e) => nouns.has(e.resource.name))
    .flatMap((e) => e.command.examples.map((ex) => [e.id, ex] as const));
  test.each(examples)("%s: %s", (id, example) => {
    const parsed = parseCommandLine(example, registry);
    expect(parsed.kind).toBe("command");
    if (parsed.kind !== "command") return;
    expect(parsed.entry.id).toBe(id);
    expect(() => validateArgs(parsed.entry, parsed.bound.raw)).not.toThrow();
  });
});
