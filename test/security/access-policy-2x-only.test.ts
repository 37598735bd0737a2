/**
 * The access-policy sweep over every REST 2.x operation (issue 42, Done when): on the demo arrays pinned to
 * 2.0–2.28, a viewer's attempt at each changing operation of 2.28 — read from the 2.x facts, never a copy —
 * changes nothing, through every path into an array: `/array api <METHOD> <path>` for every changing operation of
 * the table (whether or not the catalogue has a verb for it yet), every help example of every changing catalogue
 * verb, and the MCP face's tools for both. The operator meets the same sweep for what only an admin may change.
 * "Changes nothing" is read from the simulators' request logs (changesAt): what reached the array, not what the
 * reply said. A 2.x-only file: it runs in the REST 2.x projects only (vitest.config.ts, `-2x-only.test.ts`).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { roleAtLeast } from "../../src/core/access/roles.js";
import { parseDeclared } from "../../src/core/catalogue/endpoint-checks.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { parseCommandLine } from "../../src/core/pipeline/parse.js";
import { DEMO_ARRAYS } from "../../src/local/demo.js";
import { buildTools, toolName } from "../../src/mcp/tools.js";
import type { HttpMethod } from "../../src/rest-spec/endpoints.js";
import { findOperation } from "../../src/rest-spec/operations.js";
import { policyAllows, requestRule } from "../../src/rest-spec/policy.js";
import { type Harness, startHarness, textOf } from "../core/harness.js";
import { changesAt, changing2x } from "../helpers/facts-2x.js";
import { type McpWorld, startMcpWorld, TOKENS } from "../mcp/helpers.js";

const VERSIONS = "2.0-2.28";
const registry = createRegistry(RESOURCES);
const USERS = { viewer: "carol", operator: "bob" } as const;
type Who = keyof typeof USERS;
const REFUSED = /needs the (operator|admin) role|the bot never sends it/;

const OPS = changing2x();
/** The least role the one policy asks for an operation, read on 2.28 (refuse when nobody may send it). */
const need = (method: string, path: string) =>
  requestRule(method as HttpMethod, path, {}, "2.28")?.role ?? "refuse";
/**
 * Whether `/array api` has a verb for a method (the registry's `api <method>`). A method without one (PUT, of
 * which 2.28 has two operations, until the raw command gains it) cannot be sent raw by anyone: the sweep still
 * tries it, and checks that it is refused as no command and that nothing reaches the array.
 */
const rawVerb = (method: string) => registry.all().some((e) => e.path === `api ${method.toLowerCase()}`);
const TOOLS = new Set(buildTools(registry).map((t) => t.name));
const CHANGING = registry
  .all()
  .filter((e) => e.command.impact !== undefined)
  .flatMap((e) => e.command.examples.map((ex) => [ex, e] as const));

/** What the sweeps refused, so a sweep that checks nothing fails (the last test of the file). */
const seen = { rawViewer: 0, rawOperator: 0, verbViewer: 0, verbOperator: 0, plannedChecked: 0, mcp: 0 };

test("the facts: every changing operation of 2.28 is a row of the one policy", () => {
  expect(OPS.length).toBeGreaterThan(350);
  expect(OPS.filter((o) => requestRule(o.method as HttpMethod, o.path, {}, "2.28") === undefined)).toEqual(
    [],
  );
});

describe("through Slack's pipeline, on the demo arrays pinned to 2.x", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      arrays: DEMO_ARRAYS.map((a) => ({
        name: a.name,
        tags: [...a.tags],
        scenario: a.scenario,
        versions: VERSIONS,
      })),
      config: { channels: { default_array: DEMO_ARRAYS[0].name } },
    });
  });
  afterAll(async () => h.close());
  beforeEach(() => {
    for (const sim of h.sims.values()) sim.control.resetStats();
  });
  const reset = () => {
    for (const sim of h.sims.values()) sim.control.resetStats();
  };

  describe("`/array api` for every changing operation of 2.28, as a viewer and as an operator", () => {
    test.each(OPS.map((o) => [o.method, o.path, o.family] as const))("%s %s (%s)", async (method, path) => {
      for (const who of ["viewer", "operator"] as const) {
        reset();
        const body = method === "DELETE" ? "" : ` '{}'`;
        const text = textOf(await h.run(USERS[who], `api ${method} ${path}${body} --array fb-lab-01`));
        // No change of the table is a viewer's (whether or not it can be sent raw yet); an operator is refused what the policy keeps for admins.
        if (who === "viewer") expect(policyAllows("viewer", need(method, path))).toBe(false);
        if (!rawVerb(method)) expect(text).toMatch(new RegExp(`\`api ${method}\` is not a command`));
        else if (!policyAllows(who, need(method, path))) {
          expect(text, `${who}: ${method} ${path}`).toMatch(REFUSED);
          seen[who === "viewer" ? "rawViewer" : "rawOperator"]++;
        }
        // A change the role may ask for waits at the raw_api gate: nothing reaches the array either way.
        expect(changesAt(h.sims.values()), `${who}: ${method} ${path}`).toEqual([]);
      }
    });
  });

  describe("every help example of every changing verb, as a viewer and as an operator", () => {
    test.each(CHANGING)("%s", async (example, entry) => {
      for (const who of ["viewer", "operator"] as const) {
        reset();
        if (!roleAtLeast(who, entry.command.role)) {
          expect(textOf(await h.run(USERS[who], example)), `${who}: ${example}`).toMatch(REFUSED);
          seen[who === "viewer" ? "verbViewer" : "verbOperator"]++;
        } else {
          // Allowed to ask: a dry run, every planned change of which the one policy must allow this role.
          const text = textOf(await h.run(USERS[who], `${example.replace(/\s--dry-run\b/, "")} --dry-run`));
          for (const line of text.split("\n")) checkPlanned(who, line);
        }
        expect(changesAt(h.sims.values()), `${who}: ${example}`).toEqual([]);
      }
    });
  });
});

/** A planned request line (`POST /api/2.28/qos-policies?names=q1 (on fb-lab-01) {…}`) must be allowed to `who`. */
function checkPlanned(who: Who, line: string): void {
  const m = /^(POST|PATCH|PUT|DELETE) (\/api\/2\.\d+\/[^?\s]*)(?:\?(\S*))?/.exec(line.trim());
  if (!m) return;
  const [, method = "", path = "", qs = ""] = m;
  const query = Object.fromEntries(new URLSearchParams(qs));
  const role = requestRule(method as HttpMethod, path, query)?.role ?? "refuse";
  seen.plannedChecked++;
  expect(policyAllows(who, role), `${who}: ${line}`).toBe(true);
}

describe("through the MCP face, on a 2.x array", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await startMcpWorld({ arrays: [{ name: "lab-1", versions: VERSIONS }] });
  });
  afterAll(async () => w.close());
  const sims = () => w.h.sims.values();
  const principals = [
    ["viewer", TOKENS.reader],
    ["operator", TOKENS.ops],
  ] as const;

  /** Calls a tool as a principal; whenever the policy refuses the role, the answer is FORBIDDEN. */
  async function call(
    who: Who,
    token: string,
    name: string,
    args: Record<string, unknown>,
    refused: boolean,
  ) {
    for (const sim of sims()) sim.control.resetStats();
    const client = await w.connect(token);
    const r = await client.callTool({ name, arguments: args });
    const known = TOOLS.has(name);
    if (refused || !known) {
      expect(r.isError, `${who}: ${name} ${JSON.stringify(args)}`).toBe(true);
      expect((r.structuredContent as { error?: string }).error).toBe(known ? "FORBIDDEN" : "UNKNOWN_TOOL");
      seen.mcp++;
    }
    // Allowed or not, a change from an assistant waits for a person: nothing reaches the array.
    expect(changesAt(sims()), `${who}: ${name} ${JSON.stringify(args)}`).toEqual([]);
  }

  test.each(OPS.map((o) => [o.method, o.path] as const))("api_%s %s", async (method, path) => {
    for (const [who, token] of principals) {
      const args = { target: path, ...(method === "DELETE" ? {} : { body: "{}" }) };
      await call(who, token, `api_${method.toLowerCase()}`, args, !policyAllows(who, need(method, path)));
    }
  });

  test.each(CHANGING.map(([ex, e]) => [toolName(e.id), ex, e] as const))(
    "%s (%s)",
    async (name, ex, entry) => {
      const parsed = parseCommandLine(ex, registry);
      if (parsed.kind !== "command") throw new Error(`example of ${entry.id} does not parse: ${ex}`);
      const { array: _array, ...args } = parsed.bound.raw as Record<string, unknown>;
      for (const [who, token] of principals)
        await call(who, token, name, args, !roleAtLeast(who, entry.command.role));
    },
  );
});

/** The changing operations some changing verb declares: the rest are swept through the raw paths alone. */
function declaredByVerbs(): Set<string> {
  const out = new Set<string>();
  for (const [, e] of CHANGING)
    for (const t of e.command.endpoints ?? []) {
      const d = parseDeclared(t);
      const op = d && d.path !== "*" ? findOperation(d.method, d.path) : undefined;
      if (op) out.add(`${op.method} ${op.path}`);
    }
  return out;
}

test("the sweeps checked something", () => {
  const verbs = declaredByVerbs();
  const rawOnly = OPS.filter((o) => !verbs.has(`${o.method} ${o.path}`)).map((o) => `${o.method} ${o.path}`);
  console.log(
    `${OPS.length - rawOnly.length} of ${OPS.length} changing operations have a verb; raw only: ${rawOnly.join(", ") || "-"}`,
  );
  // Every changing operation is at least an operator's, so a viewer is refused each one sendable raw.
  expect(seen.rawViewer).toBe(OPS.filter((o) => rawVerb(o.method)).length);
  expect(seen.rawOperator).toBeGreaterThan(50);
  expect(seen.verbViewer).toBe(CHANGING.filter(([, e]) => e.command.role !== "viewer").length);
  expect(seen.verbOperator).toBeGreaterThan(50);
  expect(seen.plannedChecked).toBeGreaterThan(50);
  expect(seen.mcp).toBeGreaterThan(seen.rawViewer + seen.verbViewer);
  console.log(JSON.stringify(seen));
});
