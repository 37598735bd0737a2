/** The Recover button offered after a destroy is only good while the array still holds the object. */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { Effect } from "../../src/core/context/pipeline-types.js";
import { type Harness, startHarness, textOf } from "./harness.js";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => h.close());

const sim = () => {
  const s = h.sims.get("lab-1");
  if (!s) throw new Error("no simulator");
  return s;
};
const fsPatches = () => sim().control.stats().requests["PATCH /api/1.12/file-systems"] ?? 0;

/** Destroys `name` through the bot and returns the result carrying the Recover button. */
async function destroyed(name: string): Promise<Effect[]> {
  const done = await h.click("bob", await h.run("bob", `fs destroy ${name}`), "Confirm");
  expect(textOf(done)).toContain(`Destroyed *${name}* on lab-1.`);
  return done;
}

describe("Recover after a destroy", () => {
  test("after the file system was eradicated, the click says it is gone and changes nothing", async () => {
    const done = await destroyed("logs");
    const erase = await h.run("alice", "fs eradicate logs");
    expect(textOf(await h.click("dave", erase, "Approve", "logs"))).toContain("Eradicated *logs*");
    expect(sim().state.fileSystems.get("logs")).toBeUndefined();
    const before = fsPatches();

    const click = await h.click("bob", done, "Recover logs");
    expect(textOf(click)).toContain(
      'There is no file system named "logs" on lab-1 any more; if it was eradicated it cannot be recovered.',
    );
    expect(fsPatches()).toBe(before);
    expect(sim().state.fileSystems.get("logs")).toBeUndefined();
    expect(h.audits.at(-1)).toMatchObject({
      command: "fs.recover",
      outcome: "error",
      errorCode: "NOT_FOUND",
    });
    // The button is spent: a second click is not run again.
    expect(textOf(await h.click("bob", done, "Recover logs"))).toContain("already failed");
  });

  test("after the array's time_remaining ran out, the click has expired and changes nothing", async () => {
    const done = await destroyed("logs");
    const remaining = (await h.pool.get("lab-1").fileSystems.get("logs"))?.time_remaining;
    expect(remaining).toBeGreaterThan(0);
    h.clock.advance((remaining ?? 0) + 60_000);
    const before = fsPatches();

    const click = await h.click("bob", done, "Recover logs");
    expect(textOf(click)).toContain("The Recover logs button has expired; run the command instead.");
    expect(fsPatches()).toBe(before);
    expect(sim().state.fileSystems.get("logs")?.destroyed).toBe(true);
    expect(h.audits.at(-1)).toMatchObject({ command: "fs.recover", errorCode: "OFFER_EXPIRED" });
  });

  test("while the array still holds it, the click recovers it once", async () => {
    const done = await destroyed("logs");
    h.clock.advance(60_000);
    expect(textOf(await h.click("alice", done, "Recover logs"))).toContain("Recovered *logs* on lab-1");
    expect(sim().state.fileSystems.get("logs")?.destroyed).toBe(false);
  });
});
