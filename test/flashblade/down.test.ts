import { describe, expect, it } from "vitest";
import { SIM_VERSION } from "../helpers/wire.js";
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
      // This test steps through the on-call probes with a fake clock; background probes are tested apart.
      probeInBackground: false,
    });
    const c = pool.get("fb-dr");
    await c.get("/file-systems");
    expect(c.health()).toMatchObject({ status: "up", reachable: true, version: SIM_VERSION });

    await sim.control.down();
    await closed("fb-dr");
    // One call: the first try and its retries are refused; the third refusal marks the array down.
    const first = await failure(c.get("/file-systems"));
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
    const page = await c.get("/file-systems");
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
    expect(err.message).toBe(
      "array fb-once is unreachable (connection refused); try again in a minute, and see /array arrays for its health",
    );
    expect(c.health().status).not.toBe("down");
  });

  it("comes back by a background probe, without a user's call paying for it", async () => {
    const sim = await startSim();
    const { sleep } = recordingSleep();
    const c = poolOf([simConfig(sim, { name: "fb-probe", downAfterFailures: 1 })], { sleep }).list()[0]!;
    await c.version();
    await sim.control.down();
    await closed("fb-probe");
    expect((await failure(c.get("/arrays"))).code).toBe("ARRAY_UNREACHABLE");
    expect(c.health()).toMatchObject({ status: "down", reachable: false });
    await sim.control.up();
    await logSink.waitFor((l) => l.includes(`"array":"fb-probe"`) && l.includes("array reachable again"));
    expect(c.health()).toMatchObject({ status: "up", reachable: true });
    expect(c.health().down).toBeUndefined();
  });

  it("read time-outs mark an array down like refusals do", async () => {
    const sim = await startSim();
    const { sleep } = recordingSleep();
    const cfg = simConfig(sim, { name: "fb-slow", downAfterFailures: 2 });
    const c = poolOf([{ ...cfg, timeouts: { ...cfg.timeouts, readMs: 200 } }], {
      sleep,
      probeInBackground: false,
    }).list()[0]!;
    await c.version();
    sim.control.addLatency({ path: "/arrays", ms: 30_000 });
    const err = await failure(c.get("/arrays"));
    expect(err.code).toBe("ARRAY_UNREACHABLE");
    expect(err.message).toMatch(/^array fb-slow is unreachable since .* \(no answer within 200 ms\)/);
    expect(c.health()).toMatchObject({ status: "down", reachable: false });
    // While down, the next call fails at once instead of waiting for another time-out.
    expect((await failure(c.get("/arrays"))).message).toContain("retrying in");
  });

  it("a broken connection is told in words, never as the library's error code", async () => {
    const sim = await startSim();
    const { sleep } = recordingSleep();
    const c = poolOf([simConfig(sim, { name: "fb-reset" })], { sleep, probeInBackground: false }).list()[0]!;
    await c.version();
    sim.control.resetConnections({ path: "/file-systems", method: "POST" });
    const err = await failure(c.post("/file-systems", { body: { name: "x", provisioned: 1 } }));
    expect(err.code).toBe("ARRAY_OUTCOME_UNKNOWN");
    expect(err.message).toContain("the connection broke before the answer arrived");
    expect(err.message).toContain("Check the object's current state before trying again");
    expect(err.message).not.toMatch(/UND_ERR|ECONNRESET|socket/i);
  });
});
