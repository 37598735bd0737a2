/**
 * Every MCP tool takes what its own input schema offers (issue 46): arguments generated from the schema that
 * `tools/list` gives, called through the SDK's own client against the real face, pipeline and simulator, never
 * meet a parse error the schema did not predict. The one refusal a schema cannot carry is a text holding every
 * kind of closing quote (wordOf: no quote can carry it as one word); it is predicted here by wordOf itself.
 * Errors about the array's answer (an unknown object, an unknown array, a --where naming a column the answer
 * does not have) are not parse errors: the schema cannot know them.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wordOf } from "../../src/core/words/tokenize.js";
import { STATUS_TOOL } from "../../src/mcp/tools.js";
import { type McpWorld, startMcpWorld, TOKENS } from "../mcp/helpers.js";
import { arbitraryOf, type JsonSchema } from "./helpers/json-schema-arb.js";

/** Codes of a call refused before the command runs because of how its arguments were written. */
const isParseError = (code: string) =>
  code.startsWith("PARSE_") || code === "INVALID_ARGUMENTS" || code === "LIST_BAD_LIMIT";

/** A text no quote can carry as one word (wordOf refuses it); a refusal of it is predicted. */
function uncarriable(args: Record<string, unknown>): boolean {
  return Object.values(args).some((v) => {
    if (typeof v !== "string") return false;
    try {
      wordOf(v, "x");
      return false;
    } catch {
      return true;
    }
  });
}

let world: McpWorld;
let client: Client;
let tools: { name: string; inputSchema: JsonSchema }[];

beforeAll(async () => {
  world = await startMcpWorld();
  client = await world.connect(TOKENS.reader);
  tools = (await client.listTools()).tools as typeof tools;
});
afterAll(() => world.close());

describe("MCP tool schemas", () => {
  it("arguments generated from each tool's schema meet no parse error the schema did not predict", async () => {
    expect(tools.length).toBeGreaterThan(200);
    const surprises: string[] = [];
    for (const tool of tools) {
      if (tool.name === STATUS_TOOL) continue;
      await fc
        .assert(
          fc.asyncProperty(
            arbitraryOf(tool.inputSchema) as fc.Arbitrary<Record<string, unknown>>,
            async (args) => {
              const r = await client.callTool({ name: tool.name, arguments: args });
              const code = (r.structuredContent as { error?: string } | undefined)?.error;
              if (code === undefined || !isParseError(code) || uncarriable(args)) return;
              const text = (r.content as { text?: string }[]).map((c) => c.text).join("\n");
              surprises.push(
                `${tool.name} ${JSON.stringify(args)} → ${code}: ${text.split("\n")[0]}…${text.split("\n")[1] ?? ""}`,
              );
              return false;
            },
          ),
          { numRuns: 8, endOnFailure: true },
        )
        .catch(() => undefined);
    }
    expect(surprises).toEqual([]);
  }, 300_000);
});
