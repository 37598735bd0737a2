/**
 * Every versioned operation of REST 2.28 (read from ../shared/reference/flashblade-rest-2x/endpoints.tsv, the
 * facts the interface tables are generated from) is reached by some example `/array help` shows, run for real on
 * the console's demo arrays pinned to 2.x: each example runs on a fresh pair of demo arrays serving 2.0–2.28,
 * through its gate as a person passes it, and the operations the arrays answered with a 2xx are collected. The
 * unversioned ones (login, logout, the login banner, the version list, the OAuth2 token endpoint) are no
 * command's: the client sends them itself.
 *
 * Until every operation is reached, the test holds the set reached so far as a floor
 * (examples-coverage-2x.floor.json, written with UPDATE_FLOOR=1): an operation reached once stays reached.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { DEMO_ARRAYS } from "../../src/local/demo.js";
import { startHarness } from "../core/harness.js";
import { REPO } from "../helpers/compile-fixture.js";
import { DONE_ON_DEMO, fleetMembersFor, runThroughGates } from "./demo-examples.js";

const VERSIONS = "2.0-2.28";
const FLOOR = join(REPO, "test", "commands", "examples-coverage-2x.floor.json");

/** The 2.x facts beside the clone (as in CI) or beside the nearest directory above a nested worktree. */
function facts(): string {
  const rel = join("shared", "reference", "flashblade-rest-2x", "endpoints.tsv");
  for (let dir = dirname(REPO); ; dir = dirname(dir)) {
    if (existsSync(join(dir, rel))) return join(dir, rel);
    if (dirname(dir) === dir) return resolve(REPO, "..", rel);
  }
}

/** "METHOD /path" of every 2.28 operation below /api/<version> (rows with a last version left before 2.28). */
const [head = "", ...rows] = readFileSync(facts(), "utf8").split("\n").filter(Boolean);
const col = Object.fromEntries(head.split("\t").map((k, i) => [k, i]));
const ALL = rows.map((r) => r.split("\t")).filter((r) => !r[col["last"] as number]);
const VERSIONED = ALL.filter((r) => (r[col["path"] as number] ?? "").startsWith("/api/<ver>/")).map(
  (r) => `${r[col["method"] as number]} ${(r[col["path"] as number] ?? "").slice("/api/<ver>".length)}`,
);

/** The 2.x operation a wire request is: `GET /api/2.28/qos-policies?…` → `GET /qos-policies`. */
const key2x = (method: string, path: string) => {
  const m = /^\/api\/2\.\d+(\/[^?]*)/.exec(path);
  return m ? `${method} ${m[1]}` : undefined;
};

/** The demo pinned to 2.x; an example the demo has already done runs on two empty arrays of the same names. */
const startDemo2x = (undone: boolean, example: string) =>
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

const registry = createRegistry(RESOURCES);
const examples = [...new Set(registry.all().flatMap((e) => e.command.examples))];

describe("every versioned operation of REST 2.28 is reached by a help example on the demo arrays pinned to 2.x", () => {
  test("the facts hold 632 operations, 627 of them versioned", () => {
    expect(ALL).toHaveLength(632);
    expect(VERSIONED).toHaveLength(627);
  });

  test("each example, run for real on 2.x, adds what the demo arrays answered", {
    timeout: 1_800_000,
  }, async () => {
    const reached = new Map<string, string>();
    for (const example of examples) {
      const h = await startDemo2x(example in DONE_ON_DEMO, example);
      try {
        for (const sim of h.sims.values()) sim.control.resetStats();
        await runThroughGates(h, example);
        for (const sim of h.sims.values())
          for (const r of sim.control.stats().recent) {
            const k = key2x(r.method, r.path);
            if (k && typeof r.outcome === "number" && r.outcome < 300 && !reached.has(k))
              reached.set(k, example);
          }
      } finally {
        await h.close();
      }
    }
    const covered = VERSIONED.filter((k) => reached.has(k)).sort();
    const missing = VERSIONED.filter((k) => !reached.has(k));
    const byFamily = new Map<string, number>();
    for (const k of missing) {
      const family = k.split(" ")[1]?.split("/")[1] ?? "";
      byFamily.set(family, (byFamily.get(family) ?? 0) + 1);
    }
    console.log(
      `2.x help-example coverage on the demo: ${covered.length}/${VERSIONED.length} versioned operations from ` +
        `${examples.length} examples; missing by family: ${[...byFamily].map(([f, n]) => `${f} ${n}`).join(", ") || "none"}`,
    );
    if (process.env["UPDATE_FLOOR"]) writeFileSync(FLOOR, `${JSON.stringify(covered, null, 1)}\n`);
    const floor = JSON.parse(readFileSync(FLOOR, "utf8")) as string[];
    // The floor names operations of the table only, and every one of them is still reached.
    expect(floor.filter((k) => !VERSIONED.includes(k))).toEqual([]);
    expect(floor.filter((k) => !reached.has(k))).toEqual([]);
  });
});
