import { describe, expect, it } from "vitest";
import { failure, recordingSleep } from "./helpers.js";
import { logSink, poolOf, simConfig, startSim } from "./sim.js";

/** Waits until the client has seen the array drop its keep-alive connection (else the next call reuses it). */
function closed(array: string): Promise<string> {
  return logSink.waitFor((l) => l.includes(`"array":"${array}"`) && l.includes("connection to array closed"));
}

describe("an array that goes down", () => {
  it("fails fast while down, probes after a growing interval, and recovers when it returns", async () => {
    let now = Date.parse("2026-06-01T09:15:00Z");
    const sim = await startSim();
    const { sleep, delays } = recordingSleep();
    const pool = poolOf([simConfig(sim, { name: "fb-dr", downAfterFailures: 3 })], {
      now: () => now,
      sleep,
      random: () => 0.5,
    });
    const c = pool.get("fb-dr");
    await c.fileSystems.list();
    expect(c.health()).toMatchObject({ status: "up", reachable: true, version: "1.12" });

    await sim.control.down();
    await closed("fb-dr");
    // One call: the first try and its retries are refused; the third refusal marks the array down.
    const first = await failure(c.fileSystems.list());
    expect(first.code).toBe("ARRAY_UNREACHABLE");
    expect(first.message).toBe(
      "array fb-dr is unreachable since 09:15 UTC (connection refused); retrying in 2s",
    );
    expect(delays).toHaveLength(2);

    // While down: no connection attempt, no back-off, the same message with the time left.
    now += 500;
    const fast = await failure(c.alerts.list());
    expect(fast.message).toBe(
      "array fb-dr is unreachable since 09:15 UTC (connection refused); retrying in 2s",
    );
    expect(delays).toHaveLength(2);
    expect(pool.health()[0]).toMatchObject({ status: "down", reachable: false });
    expect(pool.health()[0]?.lastError?.code).toBe("ARRAY_UNREACHABLE");

    // After the interval one call probes; it fails, and the next interval doubles.
    now += 1500;
    const probe = await failure(c.alerts.list());
    expect(probe.message).toContain("retrying in 4s");
    now += 4000;
    expect((await failure(c.alerts.list())).message).toContain("retrying in 8s");

    // The array comes back; the next probe succeeds and everything works again.
    await sim.control.up();
    now += 7000;
    expect((await failure(c.alerts.list())).message).toContain("retrying in 1s");
    now += 1000;
    const page = await c.fileSystems.list();
    expect(page.items).toEqual([]);
    expect(c.health()).toMatchObject({ status: "up", reachable: true });
    expect(c.health().down).toBeUndefined();
    expect(logSink.lines.some((l) => l.includes("array reachable again"))).toBe(true);
  });

  it("a single refused call below the threshold is reported without marking the array down", async () => {
    const sim = await startSim();
    const { sleep } = recordingSleep();
    const c = poolOf([simConfig(sim, { name: "fb-once", downAfterFailures: 10 })], { sleep }).list()[0]!;
    await c.version();
    await sim.control.down();
    await closed("fb-once");
    const err = await failure(c.get("/arrays"));
    expect(err.code).toBe("ARRAY_UNREACHABLE");
    expect(err.message).toBe("array fb-once is unreachable (connection refused)");
    expect(c.health().status).not.toBe("down");
  });
});
