import { describe, expect, it } from "vitest";
import { fileSystemSchema } from "../../src/flashblade/schemas.js";
import { requestCount } from "../helpers/wire.js";
import { failure, recordingSleep } from "./helpers.js";
import { logSink, poolOf, simConfig, startSim } from "./sim.js";

async function setup(opts: { readMs?: number; simSleep?: (ms: number) => Promise<void> } = {}) {
  const sim = await startSim(opts.simSleep ? { sleep: opts.simSleep } : {});
  const { sleep, delays } = recordingSleep();
  const cfg = simConfig(sim, {
    timeouts: { connectMs: 2000, readMs: opts.readMs ?? 5000 },
    downAfterFailures: 10,
  });
  const c = poolOf([cfg], { sleep, random: () => 0.5 }).list()[0]!;
  await c.send(await c.fileSystems.planCreate({ name: "fs1", provisioned: 1000 }));
  sim.control.resetStats();
  const count = (key: string) => requestCount(sim.control.stats(), key);
  return { sim, c, delays, count };
}

describe("retries", () => {
  it("never repeats a PATCH after a read time-out, and says the outcome is unknown", async () => {
    const held: (() => void)[] = [];
    const { sim, c, delays, count } = await setup({
      readMs: 300,
      simSleep: () => new Promise<void>((resolve) => held.push(resolve)),
    });
    sim.control.addLatency({ path: "/file-systems", method: "PATCH", ms: 60_000 });
    const err = await failure(c.send(await c.fileSystems.planUpdate("fs1", { provisioned: 2000 })));
    expect(err.code).toBe("ARRAY_OUTCOME_UNKNOWN");
    expect(err.message).toContain("may or may not have been applied");
    expect(count("PATCH /api/1.12/file-systems")).toBe(1);
    expect(delays).toEqual([]);
    for (const release of held) release();
  });

  it("repeats a GET whose connection broke after sending, but not a PATCH", async () => {
    const { sim, c, delays, count } = await setup();
    sim.control.resetConnections({ path: "/file-systems", method: "GET", count: 1 });
    expect((await c.get("/file-systems")).items).toHaveLength(1);
    expect(count("GET /api/1.12/file-systems")).toBe(2);
    expect(delays).toEqual([0]); // the first retry of a broken connection goes at once (retry.ts)

    sim.control.resetConnections({ path: "/file-systems", method: "PATCH", count: 1 });
    const err = await failure(c.send(await c.fileSystems.planUpdate("fs1", { provisioned: 3000 })));
    expect(err.code).toBe("ARRAY_OUTCOME_UNKNOWN");
    expect(count("PATCH /api/1.12/file-systems")).toBe(1);
  });

  it("honours Retry-After on 503 for GETs and on 429 for writes", async () => {
    const { sim, c, delays, count } = await setup();
    sim.control.failRequests({ path: "/arrays", method: "GET", status: 503, retryAfter: 7, count: 2 });
    await c.arrays.info();
    expect(delays).toEqual([7000, 7000]);
    expect(count("GET /api/1.12/arrays")).toBe(3);

    sim.control.failRequests({ path: "/file-systems", method: "POST", status: 429, retryAfter: 2, count: 1 });
    const [fs] = await c.send(await c.fileSystems.planCreate({ name: "fs2" }), fileSystemSchema);
    expect(fs?.name).toBe("fs2");
    expect(delays).toEqual([7000, 7000, 2000]);
    expect(count("POST /api/1.12/file-systems")).toBe(2);

    sim.control.failRequests({
      path: "/file-systems",
      method: "PATCH",
      status: 503,
      retryAfter: 1,
      count: 1,
    });
    expect((await failure(c.send(await c.fileSystems.planUpdate("fs1", { provisioned: 5 })))).code).toBe(
      "ARRAY_REJECTED",
    );
    expect(count("PATCH /api/1.12/file-systems")).toBe(1);
  });

  it("does not wait for a Retry-After beyond the cap, and says when to try again", async () => {
    const { sim, c, delays, count } = await setup();
    sim.control.failRequests({ path: "/arrays", status: 429, retryAfter: 120, count: 1 });
    const err = await failure(c.arrays.info());
    expect(err.code).toBe("ARRAY_REJECTED");
    expect(err.message).toContain("try again in 120s");
    expect(delays).toEqual([]);
    expect(count("GET /api/1.12/arrays")).toBe(1);
  });

  it("gives up after the retry budget and reports the array's own message", async () => {
    const { sim, c, delays, count } = await setup();
    sim.control.failRequests({ path: "/arrays", status: 503, message: "Array is restarting services." });
    const err = await failure(c.arrays.info());
    expect(err.code).toBe("ARRAY_REJECTED");
    expect(err.message).toContain("Array is restarting services.");
    expect(delays).toEqual([50, 100, 200]);
    expect(count("GET /api/1.12/arrays")).toBe(4);

    sim.control.clearFaults();
    sim.control.failRequests({ path: "/arrays", status: 500, count: 1 });
    expect((await failure(c.arrays.info())).code).toBe("ARRAY_REJECTED");
    expect(count("GET /api/1.12/arrays")).toBe(5);
  });

  it("retries a POST whose connection was refused (it never reached the array)", async () => {
    const sim = await startSim();
    const delays: number[] = [];
    const sleep = async (ms: number) => {
      delays.push(ms);
      await sim.control.up();
    };
    const cfg = simConfig(sim, { name: "fb-refusing", downAfterFailures: 10 });
    const c = poolOf([cfg], { sleep, random: () => 0.5 }).list()[0]!;
    await c.get("/file-systems");
    await sim.control.down();
    // Wait until the client has seen its keep-alive connection dropped: a write on a connection the array
    // closed may have reached it, and is rightly not retried (see the PATCH tests above).
    await logSink.waitFor(
      (l) => l.includes('"array":"fb-refusing"') && l.includes("connection to array closed"),
    );
    const [fs] = await c.send(await c.fileSystems.planCreate({ name: "after-outage" }), fileSystemSchema);
    expect(fs?.name).toBe("after-outage");
    expect(delays).toEqual([50]);
    expect(requestCount(sim.control.stats(), "POST /api/1.12/file-systems")).toBe(1);
  });

  it("reports the array's error message and context for a refused request", async () => {
    const { c } = await setup();
    const err = await failure(c.send(await c.fileSystems.planUpdate("no-such-fs", { provisioned: 1 })));
    expect(err.code).toBe("ARRAY_REJECTED");
    expect(err.message).toMatch(/^sim-1 refused: .*no-such-fs/);
    expect(err.details.status).toBe(400);
  });
});
