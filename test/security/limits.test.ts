/**
 * The per-person limit (issue 22 point 6), through the real pipeline over four simulated arrays: a burst of
 * 200 commands from one person runs a few and answers the rest "slow down", sending no more than those few
 * commands' budget to the arrays; someone else's command in the same burst is answered as usual; the bucket
 * refills on the injected clock; a command that needs more array requests than its budget is stopped.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Simulator } from "../../src/simulator/index.js";
import { type Harness, startHarness, textOf } from "../core/harness.js";

const ARRAYS = ["lab-1", "lab-2", "lab-3", "lab-4"].map((name) => ({ name }));
/** Requests of commands at the simulators: everything but logins, logouts and version negotiation. */
function commandRequests(sims: Map<string, Simulator>): number {
  let n = 0;
  for (const sim of sims.values()) {
    for (const [key, count] of Object.entries(sim.control.stats().requests)) {
      if (!/\/api\/(login|logout|api_version)\b/.test(key)) n += count;
    }
  }
  return n;
}

describe("per-person limits", () => {
  let h: Harness;
  const limited: string[] = [];
  const LIMITS = { burst: 10, per_minute: 6, concurrent: 4, array_requests_per_command: 40 };
  beforeAll(async () => {
    h = await startHarness({
      arrays: ARRAYS,
      config: { limits: LIMITS },
      groups: { erin: ["S-storage"], frank: ["S-storage"] },
      limited: true,
      onLimited: (reason) => limited.push(reason),
    });
  });
  afterAll(() => h?.close());

  test("200 concurrent commands from one person: a few run, the rest are told to slow down", async () => {
    const before = commandRequests(h.sims);
    const burst = Array.from({ length: 200 }, () => h.run("carol", "space --array all"));
    const other = h.run("bob", "space --array all");
    const answers = (await Promise.all(burst)).map(textOf);
    const refused = answers.filter((t) => t.includes("Slow down: 4 of your commands are running"));
    const ran = answers.filter((t) => t.includes("lab-4") && !t.includes("Slow down"));
    expect(refused.length).toBe(200 - LIMITS.concurrent);
    expect(refused[0]).toContain("try again when one of them has answered");
    expect(ran.length).toBe(LIMITS.concurrent);
    const otherText = textOf(await other);
    expect(otherText).not.toContain("Slow down");
    expect(otherText).toContain("lab-4");
    // Five commands ran (four of carol's, bob's), each within its budget.
    const sent = commandRequests(h.sims) - before;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThanOrEqual((LIMITS.concurrent + 1) * LIMITS.array_requests_per_command);
    expect(limited.filter((r) => r === "concurrency").length).toBe(200 - LIMITS.concurrent);
  });

  test("the bucket empties after the burst and refills on the clock", async () => {
    for (let i = 0; i < LIMITS.burst; i++) {
      expect(textOf(await h.run("erin", "fs list --array lab-1"))).not.toContain("Slow down");
    }
    const refused = textOf(await h.run("erin", "fs list --array lab-1"));
    expect(refused).toContain("Slow down: 0 of your commands are running");
    expect(refused).toContain("try again in 10 s");
    expect(limited).toContain("rate");
    // Help reaches no array and takes no token: a scripted session can read all of it.
    expect(textOf(await h.run("erin", "help fs list"))).not.toContain("Slow down");
    // Someone else is not slowed by erin's empty bucket.
    expect(textOf(await h.run("frank", "fs list --array lab-1"))).not.toContain("Slow down");
    h.clock.advance(9_000);
    expect(textOf(await h.run("erin", "fs list --array lab-1"))).toContain("try again in 1 s");
    h.clock.advance(1_000);
    expect(textOf(await h.run("erin", "fs list --array lab-1"))).not.toContain("Slow down");
    expect(textOf(await h.run("erin", "fs list --array lab-1"))).toContain("Slow down");
  });
});

describe("the request budget of one command", () => {
  let h: Harness;
  const limited: string[] = [];
  beforeAll(async () => {
    h = await startHarness({
      arrays: ARRAYS,
      config: { limits: { array_requests_per_command: 6 } },
      limited: true,
      onLimited: (reason) => limited.push(reason),
    });
  });
  afterAll(() => h?.close());

  test("a fan-out that would need more array requests than its budget is stopped at the budget", async () => {
    const before = commandRequests(h.sims);
    const text = textOf(await h.run("carol", "space --array all"));
    expect(text).toContain("Stopped: this command needed more than 6 array requests");
    expect(commandRequests(h.sims) - before).toBeLessThanOrEqual(6);
    expect(limited).toEqual(["budget"]);
    // The next command has a budget of its own.
    const one = textOf(await h.run("carol", "fs list --array lab-1"));
    expect(one).not.toContain("Stopped");
    expect(one).toContain("file systems on array lab-1");
  });
});
