/** The MCP face builds its tools at the first request, not at start: their schemas build every command's. */
import { expect, test } from "vitest";
import { argsSchemasBuilt } from "../../commands/catalogue/generic/lazy-args.js";
import { catalogueResources } from "../../commands/catalogue/index.js";
import { RESOURCES } from "../../commands/index.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { toolIndex } from "../../src/mcp/tools.js";

test("the tool index builds no argument schema until asked, then every tool once", () => {
  // The catalogue's resources built anew: other files in this worker may have used the shipped ones.
  const fresh = new Map(catalogueResources().map((r) => [r.name, r]));
  const registry = createRegistry(RESOURCES.map((r) => fresh.get(r.name) ?? r));
  const before = argsSchemasBuilt();
  const tools = toolIndex(registry);
  expect(argsSchemasBuilt()).toBe(before);
  const { listed, byName } = tools();
  const built = argsSchemasBuilt();
  expect(built).toBeGreaterThan(before);
  expect(listed.length).toBe(registry.all().length + 1);
  expect(byName.get("fs_list")?.entry?.id).toBe("fs.list");
  expect(tools().listed).toBe(listed);
  expect(argsSchemasBuilt()).toBe(built);
});
