import { describe, expect, it } from "vitest";
import type { ArrayCallEvent } from "../../src/flashblade/types.js";
import { failure, recordingSleep } from "./helpers.js";
import { logSink, poolOf, simConfig, startSim } from "./sim.js";

/** The events without their durations (checked apart: they are measured, not predictable). */
function withoutMs(events: ArrayCallEvent[]): Omit<ArrayCallEvent, "ms">[] {
  for (const e of events) {
    expect(Number.isFinite(e.ms)).toBe(true);
    expect(e.ms).toBeGreaterThanOrEqual(0);
  }
  return events.map(({ ms: _ms, ...rest }) => rest);
}

describe("the pool's call observer", () => {
  it("hears each call once, after retries and re-login, with its final outcome and status", async () => {
    const sim = await startSim();
    const events: ArrayCallEvent[] = [];
    const { sleep, delays } = recordingSleep();
    const c = poolOf([simConfig(sim, { name: "fb-obs" })], {
      sleep,
      random: () => 0.5,
      onCall: (e) => events.push(e),
    }).get("fb-obs");

    await c.get("/file-systems");
    // Two 503s then an answer: one event, ok.
    sim.control.failRequests({ path: "/arrays", method: "GET", status: 503, retryAfter: 1, count: 2 });
    await c.arrays.info();
    expect(delays).toEqual([1000, 1000]);
    // The array forgets the session: a refusal, a new login, the call again; still one event.
    sim.control.invalidateSessions();
    await c.get("/file-systems");
    expect(sim.control.stats().logins).toBe(2);
    // Refused for good after the retry budget: one event with the code and the last status.
    sim.control.failRequests({ path: "/arrays", method: "GET", status: 503, message: "restarting" });
    expect((await failure(c.arrays.info())).code).toBe("ARRAY_REJECTED");
    // A write the array refuses (the name is taken).
    await c.send(await c.fileSystems.planCreate({ name: "fs1" }));
    expect((await failure(c.send(await c.fileSystems.planCreate({ name: "fs1" })))).code).toBe(
      "ARRAY_REJECTED",
    );

    expect(withoutMs(events)).toEqual([
      { array: "fb-obs", method: "GET", path: "/api_version", outcome: "ok", status: 200 },
      { array: "fb-obs", method: "GET", path: "/file-systems", outcome: "ok", status: 200 },
      { array: "fb-obs", method: "GET", path: "/arrays", outcome: "ok", status: 200 },
      { array: "fb-obs", method: "GET", path: "/file-systems", outcome: "ok", status: 200 },
      {
        array: "fb-obs",
        method: "GET",
        path: "/arrays",
        outcome: "error",
        code: "ARRAY_REJECTED",
        status: 503,
      },
      { array: "fb-obs", method: "POST", path: "/file-systems", outcome: "ok", status: 200 },
      {
        array: "fb-obs",
        method: "POST",
        path: "/file-systems",
        outcome: "error",
        code: "ARRAY_REJECTED",
        status: 400,
      },
    ]);
  });

  it("hears calls refused before anything is sent: version too old, array marked down", async () => {
    const now = Date.parse("2026-06-01T09:15:00Z");
    const sim = await startSim({ versions: "1.0-1.8" });
    const events: ArrayCallEvent[] = [];
    const { sleep } = recordingSleep();
    const c = poolOf([simConfig(sim, { name: "fb-old", downAfterFailures: 3 })], {
      now: () => now,
      sleep,
      random: () => 0.5,
      onCall: (e) => events.push(e),
    }).get("fb-old");

    expect((await failure(c.get("/file-system-replica-links"))).code).toBe("ARRAY_VERSION_TOO_OLD");

    await sim.control.down();
    await logSink.waitFor((l) => l.includes('"array":"fb-old"') && l.includes("connection to array closed"));
    // The first call's tries mark the array down; the second fails fast without a connection attempt.
    expect((await failure(c.alerts.list())).code).toBe("ARRAY_UNREACHABLE");
    const fast = await failure(c.get("/file-systems"));
    expect(fast.message).toContain("retrying in 2s");

    expect(withoutMs(events)).toEqual([
      { array: "fb-old", method: "GET", path: "/api_version", outcome: "ok", status: 200 },
      {
        array: "fb-old",
        method: "GET",
        path: "/file-system-replica-links",
        outcome: "error",
        code: "ARRAY_VERSION_TOO_OLD",
      },
      { array: "fb-old", method: "GET", path: "/alerts", outcome: "error", code: "ARRAY_UNREACHABLE" },
      { array: "fb-old", method: "GET", path: "/file-systems", outcome: "error", code: "ARRAY_UNREACHABLE" },
    ]);
  });

  it("hears a failed version negotiation once, however many callers waited on it", async () => {
    const sim = await startSim();
    await sim.control.down();
    const events: ArrayCallEvent[] = [];
    const { sleep } = recordingSleep();
    const c = poolOf([simConfig(sim, { name: "fb-never-up" })], {
      sleep,
      random: () => 0.5,
      onCall: (e) => events.push(e),
    }).get("fb-never-up");

    const errors = await Promise.all([
      failure(c.version()),
      failure(c.supports("1.1")),
      failure(c.version()),
    ]);
    expect(errors.map((e) => e.code)).toEqual([
      "ARRAY_UNREACHABLE",
      "ARRAY_UNREACHABLE",
      "ARRAY_UNREACHABLE",
    ]);
    expect(withoutMs(events)).toEqual([
      {
        array: "fb-never-up",
        method: "GET",
        path: "/api_version",
        outcome: "error",
        code: "ARRAY_UNREACHABLE",
      },
    ]);
  });

  it("an observer that throws fails no call, and is logged once", async () => {
    const sim = await startSim();
    let heard = 0;
    const c = poolOf([simConfig(sim, { name: "fb-bad-observer" })], {
      onCall: () => {
        heard++;
        throw new Error("registry closed");
      },
    }).get("fb-bad-observer");

    expect((await c.get("/file-systems")).items).toEqual([]);
    expect((await failure(c.get("/no-such-endpoint"))).code).toBe("ARRAY_ENDPOINT_UNKNOWN");
    await c.arrays.info();
    expect(heard).toBe(4); // the version negotiation, then three calls
    const warnings = logSink.lines.filter(
      (l) => l.includes('"array":"fb-bad-observer"') && l.includes("array call observer failed"),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("registry closed");
  });
});
