/**
 * Per family of the REST 2.x interface (issue 42, Done when): every help example of the catalogue, run through
 * the real client and the simulators over HTTPS on the demo arrays pinned to 2.0–2.28. A read answers its least
 * role (a viewer, unless the one policy keeps it for more, and then the viewer is refused) with only reads
 * reaching the array, all answered. A change, on demo arrays of its own (the state a change leaves would
 * otherwise decide the next example), shows its exact requests with --dry-run and changes nothing; then for real
 * it stops at its gate (Confirm, a second person's Approve, the typed name or the private prompt) with nothing
 * sent, and once through it the array received exactly the changes the dry run showed, each answered 2xx.
 *
 * Families are the `family` column of the 2.x facts (../shared/reference/flashblade-rest-2x/endpoints.tsv); a
 * command belongs to the family of the first 2.x operation it declares. Commands that name no 2.x operation (the
 * raw `api` verbs, bot-side commands) are no family's: the access-policy sweep covers the raw verbs. A 2.x-only
 * file: it runs in the REST 2.x projects only (vitest.config.ts).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import type { Role } from "../../src/core/access/roles.js";
import { parseDeclared } from "../../src/core/catalogue/endpoint-checks.js";
import { type CommandEntry, createRegistry } from "../../src/core/catalogue/registry.js";
import { DEMO_ARRAYS } from "../../src/local/demo.js";
import { findOperation } from "../../src/rest-spec/operations.js";
import type { LoggedRequest } from "../../src/simulator/index.js";
import { type Harness, startHarness, textOf } from "../core/harness.js";
import { changesAt, requestsAt, versioned2x } from "../helpers/facts-2x.js";
import { DONE_ON_DEMO, fleetMembersFor, runThroughGates } from "./demo-examples.js";

const VERSIONS = "2.0-2.28";
const USER_OF: Readonly<Record<Role, string>> = { viewer: "carol", operator: "bob", admin: "alice" };
const REFUSED = /needs the (operator|admin) role/;
const GATES = /^(Confirm|Approve|Enter secret…)$/;
/** What a dry run says of the gate (a private prompt first: it may follow a class's sentence) → its button. */
const GATE_NAMED: readonly (readonly [RegExp, string])[] = [
  [/in a private dialog/, "Enter secret…"],
  [/you would be asked to confirm first/, "Confirm"],
  [/would need \S+ approvals? from someone else/, "Approve"],
  [/It would run straight away/, "none"],
];

/** The demo pinned to 2.x; an example the demo has already done runs on two empty arrays of the same names. */
const startDemo2x = (undone = false, example = "") =>
  startHarness({
    arrays: DEMO_ARRAYS.map((a) => ({
      name: a.name,
      tags: [...a.tags],
      scenario: undone ? ("empty" as const) : a.scenario,
      versions: VERSIONS,
    })),
    fleetMembers: undone ? [] : fleetMembersFor(example),
    config: { channels: { default_array: DEMO_ARRAYS[0].name } },
  });

/** The 2.x family of the first 2.x operation a command declares, if any. */
function familyOf(entry: CommandEntry): string | undefined {
  for (const text of entry.command.endpoints ?? []) {
    const d = parseDeclared(text);
    const op = d && d.path !== "*" ? findOperation(d.method, d.path) : undefined;
    if (op?.v2) return op.v2.family;
  }
  return undefined;
}

/**
 * Help examples that do not run yet as this file expects, with the first thing that went wrong: written by the
 * test itself (UPDATE_PENDING=1), never by hand. Each is checked to still fail, so one that starts working fails
 * here until it is taken off the list (rerun with UPDATE_PENDING=1), and any other example that breaks fails.
 */
const PENDING_FILE = join(import.meta.dirname, "families-2x-only.pending.json");
const PENDING: Readonly<Record<string, string>> = existsSync(PENDING_FILE)
  ? JSON.parse(readFileSync(PENDING_FILE, "utf8"))
  : {};
const UPDATE = process.env["UPDATE_PENDING"] !== undefined;
const failing: Record<string, string> = {};

/** Runs one example's checks: it must pass, or fail if it is pending; under UPDATE_PENDING, records the outcome. */
async function check(example: string, body: () => Promise<void>): Promise<void> {
  let error: unknown;
  try {
    await body();
  } catch (e) {
    error = e;
  }
  const said = error instanceof Error ? (error.message.split("\n")[0] ?? "").slice(0, 300) : undefined;
  if (UPDATE) {
    if (said !== undefined) failing[example] = said;
    return;
  }
  if (example in PENDING) expect(said, `${example} works now: rerun with UPDATE_PENDING=1`).toBeDefined();
  else if (error !== undefined) throw error;
}

afterAll(() => {
  if (!UPDATE) return;
  const sorted = Object.fromEntries(Object.entries(failing).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(PENDING_FILE, `${JSON.stringify(sorted, null, 1)}\n`);
});

type Example = readonly [string, CommandEntry];
const registry = createRegistry(RESOURCES);
const byFamily = new Map<string, { reads: Example[]; changes: Example[] }>();
const noFamily: string[] = [];
const once = new Set<string>();
for (const entry of registry.all()) {
  const family = familyOf(entry);
  for (const ex of entry.command.examples) {
    if (once.has(ex)) continue;
    once.add(ex);
    if (family === undefined) {
      noFamily.push(ex);
      continue;
    }
    const f = byFamily.get(family) ?? { reads: [], changes: [] };
    (entry.command.impact ? f.changes : f.reads).push([ex, entry]);
    byFamily.set(family, f);
  }
}
const FAMILIES = [...byFamily].sort(([a], [b]) => a.localeCompare(b));

/** A planned change as a dry run shows it: `POST /api/2.28/qos-policies?names=q1 (on fb-lab-01) {…}` → METHOD path. */
const plannedChanges = (text: string) =>
  text.split("\n").flatMap((l) => {
    const m = /^(POST|PATCH|PUT|DELETE) (\/api\/2\.\d+\/[^?\s]*)/.exec(l.trim());
    return m ? [`${m[1]} ${m[2]}`] : [];
  });

/** A logged request as a failure names it: `POST /api/2.28/fleets?names=x → 400`. */
const said = (r: LoggedRequest) => `${r.method} ${r.path}${r.query ? `?${r.query}` : ""} → ${r.outcome}`;

test("the families: each family of an example is one of the 2.x facts", () => {
  const facts = new Set(versioned2x().map((f) => f.family));
  expect(FAMILIES.map(([f]) => f).filter((f) => !facts.has(f))).toEqual([]);
  expect(FAMILIES.length).toBeGreaterThan(60);
  // A pending example help no longer shows would hold nothing: the list is regenerated instead.
  expect(Object.keys(PENDING).filter((ex) => !once.has(ex))).toEqual([]);
  const without = [...facts].filter((f) => !byFamily.has(f)).sort();
  console.log(
    `${FAMILIES.length} of ${facts.size} families of 2.28 have help examples; none yet: ${without.join(", ") || "-"}; ` +
      `${noFamily.length} examples name no 2.x operation (raw api, bot-side commands)`,
  );
});

describe.each(FAMILIES)("family %s", (_family, { reads, changes }) => {
  let h: Harness;
  beforeAll(async () => {
    if (reads.length > 0) h = await startDemo2x();
  });
  afterAll(async () => h?.close());
  beforeEach(() => {
    for (const sim of h?.sims.values() ?? []) sim.control.resetStats();
  });

  test.each(reads)("read: %s", (example, entry) =>
    check(example, async () => {
      const role = entry.command.role;
      const text = textOf(await h.run(USER_OF[role], example));
      // A show that finds nothing ("There is no …") reads no object of the demo: its example names none.
      expect(text.split("\n")[0], example).not.toMatch(
        /needs the|not a command|Something went wrong|Invalid arguments|not something I know|^There is no /,
      );
      const got = requestsAt(h.sims.values());
      expect(got.filter((r) => r.method !== "GET").map(said), `${example}: a read changed`).toEqual([]);
      expect(got.length, `${example}: nothing reached the array`).toBeGreaterThan(0);
      const refused = got.filter((r) => typeof r.outcome !== "number" || r.outcome >= 400);
      expect(refused.map(said), `${example}: the array refused ${refused.map(said).join(", ")}`).toEqual([]);
      if (role !== "viewer") {
        for (const sim of h.sims.values()) sim.control.resetStats();
        expect(textOf(await h.run(USER_OF.viewer, example))).toMatch(REFUSED);
        expect(requestsAt(h.sims.values()).map(said), `${example}: sent for a viewer`).toEqual([]);
      }
    }),
  );

  test.each(changes)("change: %s", (example) =>
    check(example, async () => {
      const fresh = await startDemo2x(example in DONE_ON_DEMO, example);
      const sims = () => fresh.sims.values();
      try {
        const line = example.replace(/\s--dry-run\b/, "");
        const dry = textOf(await fresh.run("alice", `${line} --dry-run`));
        const planned = plannedChanges(dry);
        expect(planned.length, `${example}: the dry run shows no request`).toBeGreaterThan(0);
        expect(changesAt(sims())).toEqual([]);
        // The gate the dry run names (gateLine in src/core/approvals/dry-run.ts) is the one a person then meets.
        const gate = GATE_NAMED.find(([re]) => re.test(dry))?.[1];
        expect(gate, `${example}: the dry run names no gate: ${dry}`).toBeDefined();
        for (const sim of sims()) sim.control.resetStats();
        let before: string[] = [];
        let buttons: readonly string[] = [];
        await runThroughGates(fresh, line, (_asked, shown) => {
          before = changesAt(sims());
          buttons = shown;
        });
        if (gate === "none") expect(buttons.filter((b) => GATES.test(b))).toEqual([]);
        else {
          expect(buttons, example).toContain(gate);
          expect(before, `${example}: sent before its gate`).toEqual([]);
        }
        const sent = requestsAt(sims()).filter((r) => r.method !== "GET");
        // As a multiset: requests meant for the other array (`on fb-dr-01`) land in the other simulator's log.
        expect(sent.map((r) => `${r.method} ${r.path}`).sort()).toEqual([...planned].sort());
        const refused = sent.filter((r) => typeof r.outcome !== "number" || r.outcome >= 300);
        expect(refused.map(said), `${example}: the array refused ${refused.map(said).join(", ")}`).toEqual(
          [],
        );
      } finally {
        await fresh.close();
      }
    }),
  );
});
