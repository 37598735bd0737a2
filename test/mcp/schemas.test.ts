/**
 * What the tools' schemas declare, through the SDK's own client (issue 46): a JSON number for a size is bytes
 * and works; the enums and patterns the parser enforces are in the schema. The property test over every tool is
 * test/fuzz/mcp-schemas.fuzz.test.ts.
 */
import { afterEach, describe, expect, test } from "vitest";
import { type McpWorld, startMcpWorld, TOKENS } from "./helpers.js";

const TIB = 2 ** 40;
type Structured = Record<string, unknown>;
let w: McpWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

describe("MCP tool schemas", () => {
  test("a size given as a JSON number is bytes: fs_resize asks for exactly that many", async () => {
    w = await startMcpWorld();
    const before = w.h.sims.get("lab-1")?.state.fileSystems.get("projects")?.provisioned ?? 0;
    const bytes = (Math.ceil(before / TIB) + 9) * TIB;
    const client = await w.connect(TOKENS.ops);
    const r = await client.callTool({ name: "fs_resize", arguments: { name: "projects", size: bytes } });
    expect(r.isError).toBeFalsy();
    const s = r.structuredContent as Structured;
    expect(s.status).toBe("pending");
    expect((s.impact as { requests: string[] }).requests.join("\n")).toContain(`"provisioned":${bytes}`);
  });

  test("a unitless size as text is still refused, naming the unit a person probably meant", async () => {
    w = await startMcpWorld();
    const client = await w.connect(TOKENS.ops);
    const r = await client.callTool({
      name: "quota_set",
      arguments: { kind: "user", who: "alice", size: "500", fs: "projects" },
    });
    expect(r.isError).toBe(true);
    expect((r.structuredContent as Structured).error).toBe("INVALID_ARGUMENTS");
  });

  test("sizes, counts, enums and names say what the parser takes", async () => {
    w = await startMcpWorld();
    const client = await w.connect(TOKENS.reader);
    const { tools } = await client.listTools();
    const prop = (tool: string, key: string) =>
      tools.find((t) => t.name === tool)?.inputSchema.properties?.[key] as Record<string, unknown>;
    const size = prop("fs_resize", "size").anyOf as Record<string, unknown>[];
    expect(size[0]).toMatchObject({ type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
    const text = new RegExp(String(size[1]?.pattern), "u");
    for (const ok of ["500G", "1.5T", "2TiB", "4096B", "7999T"]) expect(text.test(ok), ok).toBe(true);
    for (const no of ["500", "9895604649984", "9000T", "0G"]) expect(text.test(no), no).toBe(false);
    expect(prop("quota_list", "kind")).toMatchObject({ enum: ["user", "group"] });
    expect(prop("perf_show", "protocol")).toMatchObject({ enum: ["all", "nfs", "smb", "http", "s3"] });
    expect(prop("alert_show", "index")).toMatchObject({ type: "integer", minimum: 1 });
    expect(prop("fs_list", "sort").enum).toContain("used-");
    expect(prop("bucket_create", "name").pattern).toBe("^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$");
    expect(prop("fs_list", "limit")).toMatchObject({ type: "integer" });
  });
});
