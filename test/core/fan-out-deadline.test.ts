/**
 * One slow array never holds the rest: a fan-out answers at its deadline with what arrived and names the
 * array still working, then the full answer follows; the stalled array's time-outs mark it down.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Effect } from "../../src/core/context/pipeline-types.js";
import { type Harness, startHarness, textOf } from "./harness.js";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    arrays: [{ name: "lab-1" }, { name: "lab-2" }],
    config: { fan_out_deadline: "0.5s", channels: { default_array: "lab-1" } },
    // Two read time-outs in a row mark an array down.
    tuning: { timeouts: { connectMs: 2000, readMs: 1000 }, downAfterFailures: 2 },
  });
});
afterAll(async () => h.close());

function reply(effects: readonly Effect[]): Extract<Effect, { kind: "reply" }> {
  const r = effects.find((e) => e.kind === "reply");
  if (r?.kind !== "reply") throw new Error("no reply");
  return r;
}

describe("a fan-out with one stalled array", () => {
  test("answers at the deadline naming the array, edits in the rest, and the array ends up down", async () => {
    // Both arrays have answered once (sessions and versions in place); then lab-2 stalls on listings.
    const warm = reply(await h.run("carol", "fs list --array all"));
    expect(warm.later).toBeUndefined();
    h.sims.get("lab-2")?.control.addLatency({ path: "/file-systems", ms: 60_000 });

    const first = reply(await h.run("carol", "fs list --array all"));
    const shown = textOf([first]);
    expect(shown).toContain("lab-1");
    expect(shown).toContain("lab-2 did not answer within 0.5 s");
    expect(h.audits.at(-1)).toMatchObject({ command: "fs.list", errorCode: "ARRAY_DEADLINE" });

    expect(first.later).toBeDefined();
    const full = await first.later;
    const updated = textOf([{ kind: "reply", message: full as NonNullable<typeof full> }]);
    expect(updated).not.toContain("did not answer within 0.5 s");
    expect(updated).toMatch(/array lab-2 failed: array lab-2 is unreachable/);
    expect(updated).not.toMatch(/UND_ERR|ECONN/);

    // Its time-out marked it down at once, as not answering (hung, not gone): the next fan-out does not wait.
    const health = textOf(await h.run("carol", "arrays"));
    expect(health).toMatch(/lab-2 \| – \| not answering/);
    const next = reply(await h.run("carol", "fs list --array all"));
    expect(next.later).toBeUndefined();
    expect(textOf([next])).toMatch(/array lab-2 failed: array lab-2 is unreachable since/);
  });
});

describe("arrays health with an array that never answered", () => {
  test("answers at the deadline and shows that array as not answered yet, not up", async () => {
    const cold = await startHarness({
      arrays: [{ name: "cold-1" }, { name: "cold-2" }],
      config: { fan_out_deadline: "0.5s" },
      tuning: { timeouts: { connectMs: 2000, readMs: 1000 }, downAfterFailures: 2 },
    });
    try {
      cold.sims.get("cold-2")?.control.addLatency({ path: "/api/api_version", ms: 60_000 });
      const text = textOf(await cold.run("carol", "arrays"));
      expect(text).toContain("1 of 2 arrays reachable");
      expect(text).toMatch(/cold-1 \| – \| up/);
      expect(text).toMatch(/cold-2 \| – \| no answer yet/);
    } finally {
      await cold.close();
    }
  });
});
