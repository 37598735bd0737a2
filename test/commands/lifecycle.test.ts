import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Simulator } from "../../src/simulator/index.js";
import { type Harness, startHarness, textOf } from "../core/harness.js";
import { queryOf, requestMark, writesSince } from "./sim-requests.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    arrays: [
      { name: "lab-1" },
      { name: "mid-1", versions: "1.0-1.11" },
      { name: "old-1", versions: "1.0-1.9" },
    ],
  });
});
afterAll(async () => h.close());

const sim = (name: string): Simulator => {
  const s = h.sims.get(name);
  if (!s) throw new Error(`no simulator ${name}`);
  return s;
};

describe("lifecycle rules", () => {
  test("list shows what each bucket keeps", async () => {
    const text = textOf(await h.run("carol", "lifecycle list analytics-raw --array lab-1"));
    expect(text).toContain("analytics-raw | expire-old-versions | (all objects) | 30d | yes");
    expect(text).toContain("analytics-raw | tmp-cleanup | tmp/ | 2d | yes");
  });

  test("a rule is selected by id with bucket_names from 1.12, by bucket/rule name before", async () => {
    const rule = [...sim("lab-1").state.lifecycleRules.values()].find((r) => r.rule_id === "tmp-cleanup");
    let m = requestMark(sim("lab-1"));
    await h.run("bob", "lifecycle update analytics-raw tmp-cleanup --keep 3d --array lab-1");
    const [patch] = writesSince(sim("lab-1"), m, "/lifecycle-rules");
    expect(Object.fromEntries(queryOf(patch))).toEqual({ ids: rule?.id, bucket_names: "analytics-raw" });
    expect(rule?.keep_previous_version_for).toBe(3 * 86_400_000);

    m = requestMark(sim("mid-1"));
    await h.run("bob", "lifecycle update analytics-raw tmp-cleanup --keep 3d --array mid-1");
    const [old] = writesSince(sim("mid-1"), m, "/lifecycle-rules");
    expect(Object.fromEntries(queryOf(old))).toEqual({ names: "analytics-raw/tmp-cleanup" });
  });

  test("shortening warns; delete is gated; create picks an id; arrays before 1.10 are told", async () => {
    expect(
      textOf(
        await h.run(
          "bob",
          "lifecycle update analytics-raw expire-old-versions --keep 7d --dry-run --array lab-1",
        ),
      ),
    ).toContain("between 7d and 30d old are deleted");
    const effects = await h.run("bob", "lifecycle delete analytics-raw tmp-cleanup --array lab-1");
    expect(textOf(effects)).toContain("then pile up until deleted by hand");
    await h.click("bob", effects, "Confirm");
    expect(sim("lab-1").state.lifecycleRules.has("analytics-raw/tmp-cleanup")).toBe(false);
    expect(textOf(await h.run("bob", "lifecycle create veeam-repo --keep 14d --array lab-1"))).toContain(
      "Created lifecycle rule fbRule1 on veeam-repo (lab-1).",
    );
    expect(textOf(await h.run("carol", "lifecycle list --array old-1"))).toContain(
      "needs REST 1.10, old-1 runs 1.9. Nothing was sent.",
    );
  });
});
