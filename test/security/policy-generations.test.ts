/**
 * One access policy over both REST generations: every operation of the one table has its row, keyed by its
 * canonical (2.28) path and parameter names, so a request phrased in either generation meets the same rule. The
 * rule that refuses 1.x `expose` refuses 2.x `expose_api_token`, on `/admins` and on `/admins/api-tokens`, through
 * the raw `api` command and through the MCP face, on a 2.x array and a 1.x one.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { OPERATIONS } from "../../src/rest-spec/operations.js";
import { endpointRule, policyTable, requestRule } from "../../src/rest-spec/policy.js";
import { type Harness, startHarness, textOf } from "../core/harness.js";
import { type McpWorld, startMcpWorld, TOKENS } from "../mcp/helpers.js";

describe("the table", () => {
  test("has one row per operation of both generations, under its canonical path", () => {
    const versioned = OPERATIONS.filter((o) => o.versioned);
    const rows = policyTable();
    expect(rows).toHaveLength(versioned.length);
    expect(new Set(rows.map((r) => `${r.method} ${r.path}`)).size).toBe(rows.length);
    expect(rows.filter((r) => r.op.v2 && !r.op.v1).length).toBeGreaterThan(400);
    expect(endpointRule("PATCH", "/smtp")).toEqual(endpointRule("PATCH", "/smtp-servers"));
    expect(endpointRule("PATCH", "/smtp-servers")).toMatchObject({ role: "admin", cls: "array_settings" });
  });

  test("a 2.x-only operation follows method and family: reads for viewers, changes for admins", () => {
    expect(requestRule("GET", "/qos-policies")?.role).toBe("viewer");
    // Changes of an operator's areas (storage, protection, …) are the operator's, as the catalogue's nouns say
    // (src/rest-spec/policy-rules-2x.ts, generated with them); security families stay admin.
    expect(requestRule("POST", "/qos-policies")?.role).toBe("operator");
    expect(requestRule("DELETE", "/file-systems/locks")).toMatchObject({ role: "operator", cls: "delete" });
    expect(requestRule("POST", "/sso/saml2/idps")?.role).toBe("admin");
    expect(requestRule("PATCH", "/password-policies")?.role).toBe("admin");
    expect(requestRule("GET", "/fleets/fleet-key")?.role).toBe("admin");
    expect(requestRule("GET", "/api/2.24/arrays/factory-reset-token")?.role).toBe("admin");
  });

  test.each([
    ["GET", "/admins", { expose: "true" }, undefined],
    ["GET", "/admins", { EXPOSE_API_TOKEN: "1" }, undefined],
    ["GET", "/api/1.12/admins", { expose: "yes" }, undefined],
    ["GET", "/api/2.24/admins", { expose_api_token: "True" }, undefined],
    ["GET", "/admins/api-tokens", { expose_api_token: "true" }, "2.0"],
    ["GET", "/api/2.28/admins/api-tokens", { expose_api_token: "on" }, undefined],
  ] as const)("%s %s %o (version %s) is refused", (method, path, query, version) => {
    expect(requestRule(method, path, query, version)?.role).toBe("refuse");
  });

  test("a flag named in the other generation's words is read in the version given", () => {
    // 2.x has no `expose`: read in 2.28 it is an unknown name, not the revealing flag; the array refuses it.
    expect(requestRule("GET", "/admins", { expose_api_token: "false" })?.role).toBe("viewer");
    expect(requestRule("PATCH", "/file-systems", { ignore_usage: "true" }, "2.20")).toMatchObject({
      role: "operator",
      cls: "shrink_below_usage",
    });
  });
});

describe("raw requests to arrays of both generations", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      arrays: [
        { name: "lab-2x", versions: "2.0-2.28" },
        { name: "lab-1x", versions: "1.0-1.12" },
      ],
    });
  });
  afterAll(async () => h.close());
  beforeEach(() => {
    for (const sim of h.sims.values()) sim.control.resetStats();
  });
  const sent = () =>
    [...h.sims.values()]
      .flatMap((s) => Object.keys(s.control.stats().requests))
      .filter((k) => /admins/.test(k));

  test.each([
    ["lab-2x", "/api/2.24/admins/api-tokens?expose_api_token=true"],
    ["lab-2x", "/admins/api-tokens?expose_api_token=1"],
    ["lab-2x", "/admins?expose_api_token=TRUE"],
    ["lab-2x", "/admins?expose=true"],
    ["lab-1x", "/admins?expose_api_token=true"],
    ["lab-1x", "/admins?expose=yes"],
  ])("on %s, `api GET %s` is refused for an admin; nothing is sent", async (array, target) => {
    const text = textOf(await h.run("alice", `api GET "${target}" --array ${array}`));
    expect(text).toMatch(/the bot never sends it/);
    expect(sent()).toEqual([]);
  });

  test("without the flag, a 2.x-only read reaches the 2.x array, and the 1.x one says which generation has it", async () => {
    expect(textOf(await h.run("carol", `api GET /admins/api-tokens --array lab-2x`))).not.toMatch(
      /never|needs/,
    );
    expect(sent()).toEqual(["GET /api/2.28/admins/api-tokens"]);
    const old = textOf(await h.run("carol", `api GET /admins/api-tokens --array lab-1x`));
    expect(old).toMatch(/not in REST 1\.x \(it exists from REST 2\.0\)/);
  });
});

describe("the MCP face on a 2.x array", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await startMcpWorld({ arrays: [{ name: "lab-1", versions: "2.0-2.28" }] });
  });
  afterAll(async () => w.close());

  test("api_get with expose_api_token is refused as FORBIDDEN and nothing reaches the array", async () => {
    const sim = w.h.sims.get("lab-1");
    sim?.control.resetStats();
    const client = await w.connect(TOKENS.ops);
    for (const target of [
      "/admins/api-tokens?expose_api_token=true",
      "/api/2.28/admins?expose_api_token=1",
    ]) {
      const r = await client.callTool({ name: "api_get", arguments: { target } });
      expect(r.isError).toBe(true);
      expect((r.structuredContent as { error?: string }).error).toBe("FORBIDDEN");
    }
    const reached = Object.keys(sim?.control.stats().requests ?? {}).filter((k) => /admins/.test(k));
    expect(reached).toEqual([]);
  });
});
