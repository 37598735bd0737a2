/**
 * A destroy's or an eradication's impact, and its recheck against the array at the Confirm or Approve, read the
 * file system and its surroundings (snapshot count, replica links; on REST 2.x its WORM policies and legal holds)
 * at once: one round trip to the array, not
 * two in a row. The approval waits on the recheck before the change (the one before the typed-name dialog runs
 * while the dialog opens), so on a slow or busy array this is the approval's time. The file system's read is held back by a latency
 * fault: the other reads must reach the array while it is still held (four connections, so they can).
 */
import { afterEach, describe, expect, test } from "vitest";
import { type Harness, startHarness, textOf } from "./harness.js";

let h: Harness | undefined;
afterEach(async () => h?.close());

const HELD_MS = 1000;

/**
 * Runs `work` with the file system's own read held for HELD_MS, and tells whether the snapshot count and the
 * replica links were read while it was held (they arrived before it could have been answered).
 */
async function readAtOnce<T>(
  harness: Harness,
  work: () => Promise<T>,
  every = false,
): Promise<{ atOnce: boolean; out: T }> {
  const sim = harness.sims.get("lab-1");
  if (!sim) throw new Error("no simulator");
  sim.control.resetStats();
  // `every`: all reads held, so a read sent only once another was answered comes after HELD_MS.
  const fault = sim.control.addLatency({
    method: "GET",
    ...(every ? {} : { path: "/file-systems" }),
    ms: HELD_MS,
  });
  try {
    const out = await work();
    const gets = sim.control.stats().recent.filter((r) => r.method === "GET");
    const fsRead = gets.find((r) => r.path.endsWith("/file-systems"));
    // REST 2.x reads the file system's WORM policies and legal holds too (2.15 and 2.17, both simulated).
    const twoX = gets.some((r) => r.path.startsWith("/api/2."));
    const paths = ["/file-system-snapshots", "/file-system-replica-links"];
    if (twoX) paths.push("/worm-data-policies/members", "/legal-holds/held-entities");
    const others = paths.map((p) => gets.find((r) => r.path.endsWith(p)));
    if (!fsRead || others.some((r) => r === undefined))
      throw new Error(`not all of ${paths.join(", ")} were read`);
    const first = Math.min(fsRead.at, ...others.map((r) => r?.at ?? Infinity));
    return { atOnce: [fsRead, ...others].every((r) => (r?.at ?? Infinity) < first + HELD_MS), out };
  } finally {
    sim.control.clearFaults(fault);
  }
}

describe("the recheck of a destroy or an eradication is one round trip", () => {
  test("eradication: the impact, the recheck before the typed-name dialog and the one before the change", async () => {
    h = await startHarness({ tuning: { connections: 4 } });
    const harness = h;
    // First contact (login, version) is done before measuring.
    await harness.run("alice", "fs list");
    const asked = await readAtOnce(harness, () => harness.run("alice", "fs eradicate old-share"));
    expect(textOf(asked.out)).toContain("Approval needed: eradicate file system old-share on lab-1");
    expect(asked.atOnce).toBe(true);

    // The dialog does not wait for the array: it comes while the check's file system read is still held.
    const prompt = await readAtOnce(harness, async () => {
      const out = await harness.click("dave", asked.out, "Approve");
      const [dialog] = out;
      if (dialog?.kind !== "prompt" || dialog.recheck === undefined)
        throw new Error("no dialog with its check");
      let settled = false;
      void dialog.recheck.then(() => {
        settled = true;
      });
      await Promise.resolve();
      const beforeAnswer = !settled;
      return { out, beforeAnswer, found: await dialog.recheck };
    });
    expect(prompt.out.out).toEqual([expect.objectContaining({ kind: "prompt" })]);
    expect(prompt.out.beforeAnswer).toBe(true);
    expect(prompt.out.found).toEqual([]);
    expect(prompt.atOnce).toBe(true);

    // An approval's reads are urgent: on REST 2.x all five go at once over four connections and one more.
    const done = await readAtOnce(
      harness,
      () => harness.click("dave", asked.out, "Approve", "old-share"),
      true,
    );
    expect(textOf(done.out)).toContain("Eradicated *old-share* on lab-1. It is gone for good.");
    expect(done.atOnce).toBe(true);
    expect(harness.sims.get("lab-1")?.state.fileSystems.get("old-share")).toBeUndefined();
  });

  test("destroy: the recheck at the Confirm; an absent file system still says so", async () => {
    h = await startHarness({ tuning: { connections: 4 } });
    const harness = h;
    const prompt = await harness.run("bob", "fs destroy logs");
    const confirmed = await readAtOnce(harness, () => harness.click("bob", prompt, "Confirm"));
    expect(textOf(confirmed.out)).toContain("Destroyed *logs*");
    expect(confirmed.atOnce).toBe(true);
    expect(textOf(await harness.run("bob", "fs destroy no-such-fs"))).toContain(
      'There is no file system named "no-such-fs" on array lab-1',
    );
  });
});
