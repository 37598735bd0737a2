/**
 * Per-client limits from the `mcp.clients` entries (issue 46), through the SDK's own client: a client's own rate
 * and its budget of array requests per call stop that client only; the configuration refuses a limit it does not
 * know.
 */
import { afterEach, describe, expect, test } from "vitest";
import { mcpConfigSchema } from "../../src/config/mcp.js";
import { type McpWorld, startMcpWorld, TOKENS, textOfResult } from "./helpers.js";

const LOOPY = "loopy-token-0123456789abcdef01";
const THRIFTY = "thrifty-token-0123456789abcdef";
const clients = {
  clients: [
    { name: "loopy", token_env: "MCP_LOOPY", role: "viewer" as const, limits: { per_minute: 1, burst: 2 } },
    {
      name: "thrifty",
      token_env: "MCP_THRIFTY",
      role: "viewer" as const,
      limits: { array_requests_per_call: 1 },
    },
  ],
  env: { MCP_LOOPY: LOOPY, MCP_THRIFTY: THRIFTY },
};
const errorOf = (r: unknown) => (r as { structuredContent?: { error?: string } }).structuredContent?.error;

let w: McpWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

describe("per-client limits", () => {
  test("a client past its own rate is refused; another client is not, and the rate refills on the clock", async () => {
    w = await startMcpWorld({}, clients);
    const loopy = await w.connect(LOOPY);
    const reader = await w.connect(TOKENS.reader);
    for (let i = 0; i < 2; i++)
      expect(errorOf(await loopy.callTool({ name: "fs_list", arguments: {} }))).toBeUndefined();
    const third = await loopy.callTool({ name: "fs_list", arguments: {} });
    expect(third.isError).toBe(true);
    expect(errorOf(third)).toBe("RATE_LIMITED");
    expect(textOfResult(third)).toContain("client loopy");
    // Polling a request's status reaches no array: it takes no token.
    expect(errorOf(await loopy.callTool({ name: "request_status", arguments: { id: "none" } }))).not.toBe(
      "RATE_LIMITED",
    );
    expect(errorOf(await reader.callTool({ name: "fs_list", arguments: {} }))).toBeUndefined();
    w.h.clock.advance(60_000);
    expect(errorOf(await loopy.callTool({ name: "fs_list", arguments: {} }))).toBeUndefined();
  });

  test("a client's request budget stops a call that needs more array requests than it allows", async () => {
    w = await startMcpWorld({}, clients);
    const thrifty = await w.connect(THRIFTY);
    const show = await thrifty.callTool({ name: "fs_show", arguments: { name: "projects" } });
    expect(show.isError).toBe(true);
    expect(errorOf(show)).toBe("REQUEST_BUDGET");
    const reader = await w.connect(TOKENS.reader);
    expect(
      errorOf(await reader.callTool({ name: "fs_show", arguments: { name: "projects" } })),
    ).toBeUndefined();
  });

  test("the configuration takes only the limits it knows", () => {
    const base = { name: "a", token_env: "A" };
    expect(mcpConfigSchema.safeParse({ clients: [{ ...base, limits: { per_minute: 30 } }] }).success).toBe(
      true,
    );
    expect(mcpConfigSchema.safeParse({ clients: [{ ...base, limits: { per_hour: 30 } }] }).success).toBe(
      false,
    );
    expect(mcpConfigSchema.safeParse({ clients: [{ ...base, limits: { burst: 0 } }] }).success).toBe(false);
  });
});
