/**
 * Health checks of many arrays go a few at a time: start-up and `/array arrays` ask every array whether it answers
 * (the version, then a login), and a thousand arrays asked at once would be a thousand logins in one burst.
 */
import { describe, expect, it } from "vitest";
import { poolOf, simConfig, startSim } from "./sim.js";

describe("checkAll", () => {
  it("checks every array with at most checks_at_once of them in flight, and records each in health", async () => {
    const sim = await startSim();
    sim.control.addLatency({ ms: 5 });
    const names = Array.from({ length: 40 }, (_, i) => `fb-${i}`);
    const pool = poolOf(
      names.map((name) => simConfig(sim, { name })),
      { checkConcurrency: 4 },
    );
    await pool.checkAll();
    const stats = sim.control.stats();
    // Each check is two requests in a row (version, login): 80 requests, at most 4 at a time.
    expect(stats.total).toBe(80);
    expect(stats.logins).toBe(40);
    expect(stats.maxInFlight).toBeGreaterThan(1);
    expect(stats.maxInFlight).toBeLessThanOrEqual(4);
    expect(pool.health().every((h) => h.reachable)).toBe(true);
  });
});
