import { describe, expect, it } from "vitest";
import { parseConfigText } from "../../src/config/load.js";
import { mcpConfigSchema, resolveMcpTokens } from "../../src/config/mcp.js";
import { configSchema } from "../../src/config/schema.js";

const arrays = [{ name: "lab-1", address: "https://lab-1.example", api_token_env: "T" }];

describe("mcp config", () => {
  it("is off by default", () => {
    const c = configSchema.parse({ arrays });
    expect(c.mcp.enabled).toBe(false);
    expect(c.mcp.clients).toEqual([]);
  });

  it("refuses a token in the configuration text, without echoing it", () => {
    const r = configSchema.safeParse({
      arrays,
      mcp: { enabled: true, clients: [{ name: "claude", token: "sekrit-token-value-123", role: "viewer" }] },
    });
    expect(r.success).toBe(false);
    const text = JSON.stringify(r.error?.issues);
    expect(text).toContain("inline token is not allowed");
    expect(text).not.toContain("sekrit-token-value-123");
  });

  it("needs exactly one token source per client", () => {
    expect(mcpConfigSchema.safeParse({ clients: [{ name: "a", role: "viewer" }] }).success).toBe(false);
    expect(
      mcpConfigSchema.safeParse({
        clients: [{ name: "a", token_env: "A", token_file: "/x", role: "viewer" }],
      }).success,
    ).toBe(false);
  });

  it("reads tokens from the environment and files, naming what is missing", () => {
    const mcp = mcpConfigSchema.parse({
      enabled: true,
      clients: [
        { name: "env-one", token_env: "TOK_A", role: "viewer" },
        { name: "file-one", token_file: "/run/tok", arrays: { "lab-1": "operator" } },
        { name: "unset", token_env: "TOK_UNSET", role: "viewer" },
      ],
    });
    const { tokens, problems } = resolveMcpTokens(mcp, {
      env: { TOK_A: "a-token-of-enough-length" },
      readFile: (p) => (p === "/run/tok" ? "another-token-long-enough\n" : ""),
    });
    expect(tokens.get("a-token-of-enough-length")?.name).toBe("env-one");
    expect(tokens.get("another-token-long-enough")?.name).toBe("file-one");
    expect(problems).toEqual(["mcp.clients[2].token_env: environment variable TOK_UNSET is not set"]);
  });
});

describe("mcp config against the rest", () => {
  it("an enabled face needs a channel where people approve", () => {
    const mcp = { enabled: true, clients: [{ name: "a", token_env: "A", role: "viewer" }] };
    const r = configSchema.safeParse({ arrays, mcp });
    expect(JSON.stringify(r.error?.issues)).toContain("set mcp.channel or destructive.approvals_channel");
    expect(configSchema.safeParse({ arrays, mcp: { ...mcp, channel: "C0AI" } }).success).toBe(true);
  });
});

describe("loading the mcp section", () => {
  const yaml = (extra = "") => `
arrays:
  - name: lab-1
    address: https://lab-1.example
    api_token_env: T
destructive:
  approvals_channel: C0APPROVE
mcp:
  enabled: true
  clients:
    - name: claude
      token_env: MCP_CLAUDE
      role: viewer
${extra}`;
  it("resolves the tokens from the environment with the rest of the file", () => {
    const loaded = parseConfigText(yaml(), {
      source: "t.yaml",
      env: { T: "array-token", MCP_CLAUDE: "claude-token-0123456789" },
      readFile: () => "",
    });
    expect(loaded.mcpTokens?.get("claude-token-0123456789")?.name).toBe("claude");
  });
  it("names a missing token's variable in the one report", () => {
    expect(() =>
      parseConfigText(yaml(), { source: "t.yaml", env: { T: "array-token" }, readFile: () => "" }),
    ).toThrow(/MCP_CLAUDE is not set/);
  });
});

describe("mcp.forbid_classes", () => {
  it("names destructive classes only", () => {
    const r = configSchema.safeParse({ arrays, mcp: { forbid_classes: ["eradicate", "nuke"] } });
    expect(JSON.stringify(r.error?.issues)).toContain('\\"nuke\\" is not a destructive class');
    expect(configSchema.safeParse({ arrays, mcp: { forbid_classes: ["eradicate"] } }).success).toBe(true);
  });
});
