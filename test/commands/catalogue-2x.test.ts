/**
 * The generated 2.x nouns behave as catalogue nouns of either generation: a 1.x array is told which 2.x version
 * has the verb, an older 2.x array which version it needs, and neither is sent anything; on an array that serves
 * the operation the verb plans the request in 2.x's words, and a viewer may read but not change.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CATALOGUE_VERBS_2X } from "../../commands/catalogue/index.js";
import { isSecretKey } from "../../src/rest-spec/secrets.js";
import { type Harness, startHarness, textOf } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    arrays: [
      { name: "gen1", versions: "1.0-1.12" },
      { name: "old2", versions: "2.0-2.16" },
      { name: "new2", versions: "2.0-2.28" },
    ],
  });
});
afterAll(async () => h.close());

const changes = (array: string) =>
  Object.keys(h.sims.get(array)?.control.stats().requests ?? {}).filter((k) =>
    /^(POST|PATCH|DELETE) /.test(k),
  );

describe("a noun of a 2.x-only family", () => {
  test("on a 1.x array says it is not in REST 1.x and from which 2.x version, sending nothing", async () => {
    h.sims.get("gen1")?.control.resetStats();
    const text = textOf(await h.run("alice", "qos-policy create gold --array gen1"));
    expect(text).toContain(
      "`qos-policy create` is not in REST 1.x (it exists from REST 2.17), gen1 runs 1.12",
    );
    expect(changes("gen1")).toEqual([]);
  });

  test("on an older 2.x array says which version it needs", async () => {
    const text = textOf(await h.run("alice", "qos-policy list --array old2"));
    expect(text).toContain("`qos-policy list` needs REST 2.17, old2 runs 2.16");
  });

  test("on 2.28 plans the request in 2.x's words, with a field of the 2.x body model", async () => {
    h.sims.get("new2")?.control.resetStats();
    const text = textOf(
      await h.run("alice", "qos-policy create gold --max-total-ops-per-sec 5000 --array new2 --dry-run"),
    );
    expect(text).toContain("Dry run");
    expect(text).toContain("POST /api/2.28/qos-policies");
    expect(text).toContain("max_total_ops_per_sec");
    expect(changes("new2")).toEqual([]);
  });

  test("a viewer reads it and is refused a change", async () => {
    expect(textOf(await h.run("carol", "qos-policy list --array new2"))).not.toContain("needs the");
    h.sims.get("new2")?.control.resetStats();
    expect(textOf(await h.run("carol", "qos-policy create gold --array new2"))).toContain(
      "needs the operator role",
    );
    expect(changes("new2")).toEqual([]);
  });
});

describe("secrets in 2.x bodies", () => {
  // Every field of a 2.x verb whose name is a secret's (a password, a private key) is asked privately.
  const fields = CATALOGUE_VERBS_2X.flatMap((p) =>
    p.fields.map((f) => [`${p.spec.noun} ${p.verb}`, f] as const),
  );
  test("some 2.x verbs take a secret, and every such field is a flag whose value a private dialog asks for", () => {
    const secretNamed = fields.filter(([, f]) => isSecretKey(f.path.at(-1) ?? ""));
    expect(secretNamed.length).toBeGreaterThan(0);
    expect(secretNamed.filter(([, f]) => f.secret !== true).map(([v, f]) => `${v} --${f.option}`)).toEqual(
      [],
    );
  });
});
