/** docs/commands.md is generated from the registry; this fails when it is not current. */
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { commandsMarkdown } from "../../commands/docs.js";
import { RESOURCES } from "../../commands/index.js";
import { createRegistry } from "../../src/core/registry.js";

test("docs/commands.md is current (regenerate with npm run docs:commands)", () => {
  const current = readFileSync(new URL("../../docs/commands.md", import.meta.url), "utf8");
  expect(current).toBe(commandsMarkdown(createRegistry(RESOURCES)));
});

test("it lists every verb of every resource with its role", () => {
  const doc = commandsMarkdown(createRegistry(RESOURCES));
  for (const r of RESOURCES) {
    expect(doc).toContain(`### ${r.name}`);
    for (const c of r.commands) expect(doc).toMatch(new RegExp(`\\| ${c.verb} \\| .*\\| ${c.role} \\|`));
  }
});
