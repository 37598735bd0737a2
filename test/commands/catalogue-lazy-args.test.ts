/**
 * The catalogue's generic verbs build their argument schemas when first used, not at start: building all 700-odd
 * at import held ~21 MiB of zod instances for the life of the process, for verbs a running bot mostly never sees.
 */
import { describe, expect, test } from "vitest";
import { argsSchemasBuilt } from "../../commands/catalogue/generic/lazy-args.js";
import { CATALOGUE_VERBS, CATALOGUE_VERBS_2X, catalogueResources } from "../../commands/catalogue/index.js";
import { RESOURCES } from "../../commands/index.js";
import type { CommandDefinition } from "../../src/core/catalogue/define-command.js";
import { commandId, createRegistry } from "../../src/core/catalogue/registry.js";
import { parseCommandLine, validateArgs } from "../../src/core/pipeline/parse.js";

const deferred = (c: CommandDefinition) =>
  typeof Object.getOwnPropertyDescriptor(c, "args")?.get === "function";

/**
 * The registry the bot builds, with the catalogue's resources built anew here: the test worker shares modules
 * with other files, whose tests may already have used the shipped ones.
 */
function freshRegistry() {
  const fresh = new Map(catalogueResources().map((r) => [r.name, r]));
  return createRegistry(RESOURCES.map((r) => fresh.get(r.name) ?? r));
}

describe("generic argument schemas are built on first use", () => {
  test("building the catalogue and the registry builds none", () => {
    const before = argsSchemasBuilt();
    const registry = freshRegistry();
    expect(argsSchemasBuilt()).toBe(before);
    // Every generic verb (the lists docs and coverage read) is one whose schema waits: none was built above.
    const generic = [...CATALOGUE_VERBS, ...CATALOGUE_VERBS_2X].map((p) =>
      registry.byId(commandId(p.spec.noun, p.verb)),
    );
    expect(generic.length).toBeGreaterThan(0);
    expect(generic.filter((e) => e !== undefined && !deferred(e.command)).map((e) => e?.id)).toEqual([]);
  });

  test("the first use of a verb builds its schema once, and no other verb's", () => {
    const registry = freshRegistry();
    const entry = registry.all().find((e) => deferred(e.command) && e.command.positional?.length);
    if (!entry) throw new Error("no generic verb with a positional argument");
    const example = entry.command.examples[0] ?? "";
    const before = argsSchemasBuilt();
    const parsed = parseCommandLine(example, registry);
    if (parsed.kind !== "command") throw new Error(`${example} did not parse as a command`);
    expect(parsed.entry.id).toBe(entry.id);
    validateArgs(parsed.entry, parsed.bound.raw);
    expect(argsSchemasBuilt()).toBe(before + 1);
    // Kept once built: every later reader gets the same zod object.
    expect(entry.command.args).toBe(entry.command.args);
    expect(argsSchemasBuilt()).toBe(before + 1);
  });
});

describe("generic argument schemas share what is alike", () => {
  test("a noun's update and delete name their object with one schema", () => {
    const registry = freshRegistry();
    const pairs = registry.resources.flatMap((r) => {
      const update = r.commands.find((c) => c.verb === "update" && deferred(c));
      const del = r.commands.find((c) => c.verb === "delete" && deferred(c));
      const key = update?.positional?.[0];
      return update && del && key !== undefined && del.positional?.[0] === key ? [{ update, del, key }] : [];
    });
    expect(pairs.length).toBeGreaterThan(0);
    for (const { update, del, key } of pairs) expect(update.args.shape[key]).toBe(del.args.shape[key]);
  });
});
