/**
 * The same sweep as Slack's: every changing tool (read from the registry), called by a viewer principal with its
 * command's first example as arguments (on the one simulated array), is refused and changes nothing at the simulator.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { parseCommandLine } from "../../src/core/pipeline/parse.js";
import { toolName } from "../../src/mcp/tools.js";
import { type McpWorld, startMcpWorld, TOKENS } from "./helpers.js";

const registry = createRegistry(RESOURCES);
const changing = registry.all().filter((e) => e.command.impact);

let w: McpWorld;
beforeAll(async () => {
  w = await startMcpWorld();
});
afterAll(async () => {
  await w.close();
});

/** Requests that change something at the array: everything but reads and the session's own login and logout. */
function mutations(): number {
  const stats = w.h.sims.get("lab-1")?.control.stats().requests ?? {};
  return Object.entries(stats)
    .filter(([k]) => !k.startsWith("GET ") && !/\/(login|logout)\b/.test(k))
    .reduce((n, [, v]) => n + v, 0);
}

describe("policy sweep over the MCP face", () => {
  test("there are changing tools to sweep", () => {
    expect(changing.length).toBeGreaterThan(50);
  });

  test.each(changing.map((e) => [toolName(e.id), e] as const))(
    "%s called by a viewer principal is refused and changes nothing",
    async (name, entry) => {
      const parsed = parseCommandLine(entry.command.examples[0] ?? "", registry);
      if (parsed.kind !== "command") throw new Error(`example of ${entry.id} does not parse`);
      const args: Record<string, unknown> = { ...parsed.bound.raw };
      const client = await w.connect(TOKENS.reader);
      const before = mutations();
      const r = await client.callTool({ name, arguments: args });
      expect(r.isError).toBe(true);
      expect((r.structuredContent as { error?: string }).error).toBe("FORBIDDEN");
      expect(mutations()).toBe(before);
      expect(await w.h.store.listOpen()).toEqual([]);
    },
  );
});
