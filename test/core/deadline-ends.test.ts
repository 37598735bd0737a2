/**
 * The fan-out deadline ends with the wait: once every array has answered, its timer is told to stop, so the
 * race and the answer it settled with are not kept alive until the deadline would have fired (a thousand
 * answers at 100 commands/s with the 10 s deadline). One array (the slow-array notice) and several (a fan-out).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, startHarness, textOf } from "./harness.js";

let h: Harness;
const timers: { ms: number; ended: AbortSignal }[] = [];

beforeAll(async () => {
  h = await startHarness({
    arrays: [{ name: "lab-1" }, { name: "lab-2" }],
    config: { channels: { default_array: "lab-1" } },
    // A deadline that never fires by itself: only the answer decides the race.
    timer: (ms, ended) => {
      timers.push({ ms, ended });
      return new Promise<void>(() => {});
    },
  });
});
afterAll(async () => h.close());

describe("the fan-out deadline's timer", () => {
  test.each([
    ["one array", "fs list"],
    ["every array", "fs list --array all"],
  ])("is ended once %s answered", async (_what, line) => {
    const before = timers.length;
    const text = textOf(await h.run("carol", line));
    expect(text).toContain("home");
    const started = timers.slice(before);
    expect(started.length).toBeGreaterThan(0);
    for (const t of started) {
      expect(t.ms).toBe(10_000);
      expect(t.ended.aborted).toBe(true);
    }
  });
});
