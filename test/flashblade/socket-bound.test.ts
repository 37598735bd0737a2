/**
 * The pool's bound on sockets to all arrays together, counted at the simulator (real HTTPS on loopback): a
 * fan-out over more arrays than the bound never has more sockets open than the bound, every call answers, and
 * each array still logs in once. Idle sessions end and come back on demand with one login. A call that cannot
 * get a place in time fails, saying why, instead of waiting behind the bound without end; the array is not blamed.
 */
import { describe, expect, it } from "vitest";
import type { FileSystem } from "../../src/flashblade/types.js";
import { poolOf, simConfig, startSim } from "./sim.js";

const ARRAYS = 60;
const BOUND = 8;
const names = Array.from({ length: ARRAYS }, (_, i) => `fb-${String(i).padStart(3, "0")}`);

describe("socket bound across the pool", () => {
  it("a fan-out over more arrays than the bound holds the bound at the array side and answers every call", async () => {
    const sim = await startSim();
    // Answers take a little while, so calls to different arrays overlap and would each want a socket.
    sim.control.addLatency({ ms: 5 });
    const pool = poolOf(
      names.map((name) => simConfig(sim, { name })),
      { maxSockets: BOUND },
    );
    // Three calls per array at once: the version, one login and the reads all share the array's sockets.
    const calls = pool
      .list()
      .flatMap((c) => [0, 1, 2].map(() => c.get<FileSystem>("/file-systems", { query: { limit: 1 } })));
    const answers = await Promise.allSettled(calls);
    expect(answers.filter((a) => a.status === "rejected")).toEqual([]);
    expect(answers).toHaveLength(ARRAYS * 3);
    const stats = sim.control.stats();
    expect(stats.maxConnections).toBeGreaterThan(1);
    expect(stats.maxConnections).toBeLessThanOrEqual(BOUND);
    expect(stats.logins).toBe(ARRAYS);
    expect(pool.sockets()).toMatchObject({ max: BOUND, waiting: 0 });
    expect(pool.sockets().peak).toBeLessThanOrEqual(BOUND);
  });

  it("ends the sessions of arrays idle for the idle time; the next call logs in again, once", async () => {
    const sim = await startSim();
    let now = 1_000_000;
    const pool = poolOf(
      names.slice(0, 5).map((name) => simConfig(sim, { name })),
      { maxSockets: BOUND, idleSessionMs: 60_000, now: () => now },
    );
    await Promise.all(pool.list().map((c) => c.get("/file-systems", { query: { limit: 1 } })));
    expect(sim.control.stats().logins).toBe(5);
    now += 59_000;
    expect(await pool.sweepIdle()).toBe(0);
    await pool.get("fb-000").get("/file-systems", { query: { limit: 1 } });
    now += 1_000;
    // fb-000 was just used; the other four have been idle for the whole minute.
    expect(await pool.sweepIdle()).toBe(4);
    expect(sim.control.stats().logouts).toBe(4);
    expect(
      pool
        .health()
        .filter((h) => h.sessionAgeMs !== undefined)
        .map((h) => h.name),
    ).toEqual(["fb-000"]);
    const again = pool.get("fb-001");
    await Promise.all([0, 1, 2, 3].map(() => again.get("/file-systems", { query: { limit: 1 } })));
    expect(sim.control.stats().logins).toBe(6);
  });

  it("a call that waits for a place past its time-out fails as never sent, naming the bound, the array not blamed", async () => {
    const slow = await startSim();
    const quick = await startSim();
    const pool = poolOf(
      [
        simConfig(slow, { name: "slow", timeouts: { connectMs: 2000, readMs: 20_000 } }),
        // A call waits for a place at most its read time-out (what a call holding one may take).
        simConfig(quick, {
          name: "quick",
          timeouts: { connectMs: 2000, readMs: 1000 },
          downAfterFailures: 1,
        }),
      ],
      { maxSockets: 1, retry: { maxRetries: 0, baseMs: 1, capMs: 1, maxRetryAfterMs: 0 } },
    );
    // Sessions in place first: only the reads below want sockets.
    for (const c of pool.list()) await c.get("/file-systems", { query: { limit: 1 } });
    slow.control.addLatency({ path: "/file-systems", ms: 3000 });
    const held = pool.get("slow").get("/file-systems", { query: { limit: 1 } });
    // The one place is held by a call in flight: the other array's connect waits, then gives up.
    await expect(pool.get("quick").get("/file-systems", { query: { limit: 1 } })).rejects.toMatchObject({
      code: "ARRAY_BUSY",
      message: expect.stringMatching(/connections the bot may open to arrays were busy/),
    });
    // The bot's bound, not the array: it is not marked down (one connect failure would have).
    expect(pool.health().find((h) => h.name === "quick")?.status).toBe("up");
    await held;
    expect(pool.sockets()).toMatchObject({ max: 1, waiting: 0 });
  });
});
