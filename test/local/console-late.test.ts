/** The console cannot edit what it printed: a fan-out's late answers come as a follow-up, before the next line. */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createConsoleSession } from "../../src/local/console-session.js";
import { type Harness, startHarness } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    arrays: [{ name: "lab-1" }, { name: "lab-2" }],
    config: { fan_out_deadline: "0.5s", channels: { default_array: "lab-1" } },
    tuning: { timeouts: { connectMs: 2000, readMs: 1000 }, downAfterFailures: 2 },
  });
});
afterAll(async () => h.close());

describe("late answers on the console", () => {
  test("the first answer names the late array; the full answer follows once it has answered", async () => {
    const out: string[] = [];
    const s = createConsoleSession({
      pipeline: h.pipeline,
      outcomes: { records: h.audits },
      initialUser: "carol",
      io: { write: (t) => out.push(t), ask: async () => undefined },
    });
    await s.handleLine("/array fs list --array all");
    await s.settled();
    h.sims.get("lab-2")?.control.addLatency({ path: "/file-systems", ms: 60_000 });
    out.length = 0;

    await s.handleLine("/array fs list --array all");
    expect(out.join("\n")).toContain("lab-2 did not answer within 0.5 s");
    await s.settled();
    const followUp = out.at(-1) ?? "";
    expect(followUp.startsWith("(answer updated: the late arrays have answered)")).toBe(true);
    expect(followUp).toContain("array lab-2 failed: array lab-2 is unreachable");
    expect(followUp).not.toContain("did not answer within");
  });

  test("one slow array: a 'slow' answer at the deadline, the next command runs, the late answer is printed", async () => {
    const out: string[] = [];
    const s = createConsoleSession({
      pipeline: h.pipeline,
      outcomes: { records: h.audits },
      initialUser: "carol",
      io: { write: (t) => out.push(t), ask: async () => undefined },
    });
    // The test before left lab-2 marked down; past its interval the background probe brings it back.
    h.clock.advance(60_000);
    await expect.poll(() => h.pool.get("lab-2").health().reachable, { timeout: 15_000 }).toBe(true);
    const slow = h.sims.get("lab-2")?.control.addLatency({ path: "/buckets", ms: 60_000 });
    try {
      await s.handleLine("/array bucket list --array lab-2");
      expect(out.join("\n")).toContain(
        "lab-2 is slow: no answer within 0.5 s. The answer is added here when it comes.",
      );
      // Not held: the next command answers while lab-2's answer is still to come.
      out.length = 0;
      await s.handleLine("/array fs list --array lab-1");
      expect(out.join("\n")).toContain("file systems on array lab-1");
      expect(out.join("\n")).not.toContain("answer updated");
      await s.settled();
      const followUp = out.at(-1) ?? "";
      expect(followUp.startsWith("(answer updated")).toBe(true);
      expect(followUp).toContain("array lab-2 is unreachable");
    } finally {
      if (slow !== undefined) h.sims.get("lab-2")?.control.clearFaults(slow);
    }
  });
});
