/** The catalogue is valid data: every entry's path is in the endpoint table and the registry accepts it. */
import { describe, expect, test } from "vitest";
import { CATALOGUE_2X } from "../../commands/catalogue/catalogue-2x.js";
import { checkSpecs } from "../../commands/catalogue/generic/derive.js";
import { CATALOGUE } from "../../commands/catalogue/index.js";
import { RESOURCES } from "../../commands/index.js";
import { checkDefinitions, createRegistry } from "../../src/core/catalogue/registry.js";
import { parseCommandLine, validateArgs } from "../../src/core/pipeline/parse.js";

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
  // The generated 2.x nouns too: an example without a selector its verb requires is refused before it is sent.
  const nouns = new Set([...CATALOGUE, ...CATALOGUE_2X].map((c) => c.noun));
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

describe("hand-written overrides", () => {
  test("a hand-written verb replaces the generic one of the same name and the noun stays one resource", async () => {
    const { resourceOf } = await import("../../commands/catalogue/generic/build.js");
    const { defineCommand } = await import("../../src/core/catalogue/define-command.js");
    const { message } = await import("../../src/core/presentation/message.js");
    const { z } = await import("zod");
    const spec = CATALOGUE.find((c) => c.noun === "replica-link bucket");
    if (!spec) throw new Error("no replica-link bucket in the catalogue");
    const pause = defineCommand({
      verb: "pause",
      summary: "Pause",
      examples: ["replica-link bucket pause x"],
      args: z.object({}),
      role: "operator",
      run: async () => null,
      render: () => message("x", []),
    });
    const list = { ...pause, verb: "list", examples: ["replica-link bucket list"] };
    const r = resourceOf(spec, { name: "bucket-link", summary: "Bucket links", commands: [list, pause] });
    expect(r.commands.filter((c) => c.verb === "list")).toEqual([list]);
    // The hand-written name stays a way to type the noun.
    expect(r.aliases).toContain("bucket-link");
    expect(r.commands.map((c) => c.verb)).toContain("pause");
    expect(r.commands.map((c) => c.verb)).toContain("delete");
  });
});
