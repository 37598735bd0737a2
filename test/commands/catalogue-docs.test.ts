/**
 * docs/commands.md is generated from the registry and from what hand-written commands were seen to send
 * against the demo arrays; this fails when the file is not current.
 */
import { readFileSync } from "node:fs";
import { beforeAll, expect, test } from "vitest";
import { CATALOGUE_VERBS, CATALOGUE_VERBS_2X } from "../../commands/catalogue/index.js";
import { commandsMarkdown } from "../../commands/docs.js";
import { RESOURCES } from "../../commands/index.js";
import { commandId, createRegistry } from "../../src/core/catalogue/registry.js";
import { observeRequests } from "../../tools/observe-requests.js";

const registry = createRegistry(RESOURCES);
let observed: Map<string, string[]>;
beforeAll(async () => {
  observed = await observeRequests(registry);
}, 60_000);

test("docs/commands.md is current (regenerate with npm run docs:commands)", () => {
  const current = readFileSync(new URL("../../docs/commands.md", import.meta.url), "utf8");
  expect(current).toBe(commandsMarkdown(registry, observed));
});

test("it lists every verb of every resource with its role", () => {
  const doc = commandsMarkdown(registry, observed);
  for (const r of RESOURCES) {
    expect(doc).toContain(`### ${r.name}`);
    for (const c of r.commands) expect(doc).toMatch(new RegExp(`\\| ${c.verb} \\| .*\\| ${c.role} \\|`));
  }
});

test("a hand-written command's sends are what its example sent: the change it plans, or the reads it made", () => {
  // fs resize plans a PATCH of the file system; fs list reads the file systems and nothing else.
  expect(observed.get("fs.resize")).toEqual(["PATCH /file-systems"]);
  expect(observed.get("fs.list")).toEqual(["GET /file-systems"]);
  const doc = commandsMarkdown(registry, observed);
  expect(doc).toMatch(/\| resize \| .*\| PATCH \/file-systems \|/);
  // Catalogue verbs keep their declared endpoint; the observation covers only the hand-written ones.
  const catalogued = new Set(CATALOGUE_VERBS.map((p) => commandId(p.spec.noun, p.verb)));
  expect([...observed.keys()].filter((id) => catalogued.has(id))).toEqual([]);
});

test("every hand-written command that reaches an array has a sends entry", () => {
  const catalogued = new Set(
    [...CATALOGUE_VERBS, ...CATALOGUE_VERBS_2X].map((p) => commandId(p.spec.noun, p.verb)),
  );
  const missing = registry
    .all()
    // A command that declares it sends nothing (`history show` reads the bot's own records) reaches no array.
    .filter((e) => e.command.endpoints?.length !== 0)
    .filter((e) => !catalogued.has(e.id) && e.command.scope !== "global" && !observed.has(e.id))
    .map((e) => e.id);
  // Changes every example of which the demo refuses (its two arrays are connected already): the exception list
  // of test/commands/examples-demo.test.ts. Once one reaches its dry run it gets a sends entry, and this list
  // must lose it. A 2.x-only noun's own command (fleet member join) is documented by its declared endpoints
  // (tools/observe-requests.ts), and its example runs on the demo pinned to 2.x (examples-coverage-2x.test.ts).
  expect(missing.filter((id) => registry.byId(id)?.resource.rest2Only !== true).sort()).toEqual([
    "array-connection.create",
  ]);
});
