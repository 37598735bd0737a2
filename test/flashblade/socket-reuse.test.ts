/**
 * Reconnects resume the TLS session. With more arrays than array_pool.max_sockets, an array's idle socket is
 * closed for another array's call, so at fleet scale nearly every alert poll reconnects; a resumed handshake
 * skips the certificate exchange and its checks. undici keeps tickets through WeakRefs only, so the test
 * collects garbage between reconnects, as happens between two real polls.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { urgently } from "../../src/flashblade/urgency.js";
import { poolOf, simConfig, startSim } from "./sim.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

describe("TLS session resumption", () => {
  it("a socket closed for another array's call reconnects with a resumed session, after a garbage collection", async () => {
    const sim = await startSim();
    // One socket for two arrays: each call closes the other array's idle socket, so every call reconnects.
    const pool = poolOf([simConfig(sim, { name: "fb-a" }), simConfig(sim, { name: "fb-b" })], {
      maxSockets: 1,
      probeInBackground: false,
    });
    const [a, b] = pool.list();
    for (const c of [a, b]) await c?.get("/file-systems", { query: { limit: 1 } });
    const first = pool.sockets().handshakes;
    for (let round = 0; round < 3; round++) {
      for (const c of [a, b]) {
        collectGarbage();
        // WeakRefs are cleared only once the current job has ended.
        await new Promise((resolve) => setImmediate(resolve));
        await c?.get("/file-systems", { query: { limit: 1 } });
      }
    }
    const after = pool.sockets().handshakes;
    expect(after.full).toBe(first.full);
    expect(after.resumed - first.resumed).toBe(6);
    expect(pool.sockets().peak).toBe(1);
  });
});

describe("one socket per array for calls made one after another", () => {
  it("the version, the login and two reads, one after another, share one socket and one handshake", async () => {
    const sim = await startSim();
    const pool = poolOf([simConfig(sim, { name: "fb-seq" })], { probeInBackground: false });
    const c = pool.list()[0];
    await c?.get("/file-systems", { query: { limit: 1 } });
    await c?.get("/file-systems", { query: { limit: 1 } });
    expect(sim.control.stats().logins).toBe(1);
    expect(pool.sockets().handshakes).toEqual({ full: 1, resumed: 0 });
    expect(pool.sockets().peak).toBe(1);
  });
});

describe("an array's parallel calls while the bound is full", () => {
  it("wait for the array's own socket instead of taking places from other arrays: one handshake per array", async () => {
    const sim = await startSim();
    const names = ["fb-p1", "fb-p2", "fb-p3", "fb-p4", "fb-p5", "fb-p6"];
    // Two places for six arrays, each asking four things at once (as `space --array all` does).
    const pool = poolOf(
      names.map((name) => simConfig(sim, { name })),
      { maxSockets: 2, probeInBackground: false },
    );
    // Logged in first, one array at a time, so the fan-out's handshakes are the reconnects alone.
    for (const c of pool.list()) await c.get("/file-systems", { query: { limit: 1 } });
    const before = pool.sockets().handshakes;
    await Promise.all(
      pool.list().flatMap((c) => [1, 2, 3, 4].map(() => c.get("/file-systems", { query: { limit: 1 } }))),
    );
    const after = pool.sockets().handshakes;
    const handshakes = after.full + after.resumed - before.full - before.resumed;
    // Without the wait, each array's three other calls opened sockets of their own (shed again after one call):
    // more handshakes than arrays.
    expect(handshakes).toBeLessThanOrEqual(names.length);
    expect(pool.sockets().peak).toBe(2);
  });
});

describe("an array's parallel calls while the bound is at its size but nobody waits", () => {
  it("take another array's idle socket at once instead of queueing behind the array's own call", async () => {
    const sim = await startSim();
    const pool = poolOf(
      ["fb-q1", "fb-q2"].map((name) => simConfig(sim, { name })),
      { maxSockets: 2, probeInBackground: false },
    );
    const [a, b] = pool.list();
    // Both places taken by sockets left idle: the bound is at its size, no connect waits.
    for (const c of [a, b]) await c?.get("/file-systems", { query: { limit: 1 } });
    expect(pool.sockets().open).toBe(2);
    sim.control.addLatency({ ms: 50 });
    sim.control.resetStats();
    await Promise.all([1, 2].map(() => b?.get("/file-systems", { query: { limit: 1 } })));
    // Held behind the first call, the second would have run after it on the same socket (one at a time); an
    // approval's calls queued that way behind an array's other calls under the 1,000-array load.
    expect(sim.control.stats().maxInFlight).toBe(2);
    expect(pool.sockets().peak).toBe(2);
  });
});

describe("a call somebody waits on to carry out a change, while connects wait for a place", () => {
  /**
   * Two places; array U's first call holds one (400 ms), B1's call the other (100 ms), B2's connect waits. U then
   * asks one more thing. Held for U's own socket, it runs after U's first call; urgent (an approval's recheck),
   * it gets the place B1 gives back, before B2's waiting connect, and runs beside U's first call.
   */
  async function secondCallBeside(urgent: boolean): Promise<{ beside: boolean; b2AfterU: boolean }> {
    const simU = await startSim();
    const simB = await startSim();
    const pool = poolOf(
      [
        simConfig(simU, { name: "fb-u" }),
        simConfig(simB, { name: "fb-b1" }),
        simConfig(simB, { name: "fb-b2" }),
      ],
      { maxSockets: 2, probeInBackground: false },
    );
    const [u, b1, b2] = pool.list();
    if (!u || !b1 || !b2) throw new Error("three arrays");
    // Logged in one at a time (the login and version take each array's socket only briefly).
    for (const c of [u, b1, b2]) await c.get("/file-systems", { query: { limit: 1 } });
    simU.control.addLatency({ ms: 400 });
    simB.control.addLatency({ ms: 100 });
    simU.control.resetStats();
    simB.control.resetStats();
    const read = () => u.get("/file-systems", { query: { limit: 1 } });
    const first = read();
    const other = b1.get("/file-systems", { query: { limit: 1 } });
    const waiting = b2.get("/file-systems", { query: { limit: 1 } });
    // Asked once every place is taken and B2's connect waits.
    await new Promise((resolve) => setImmediate(resolve));
    const second = urgent ? urgently(read) : read();
    await Promise.all([first, other, waiting, second]);
    const uCalls = simU.control.stats().recent.filter((r) => r.method === "GET");
    const b2Call = simB.control
      .stats()
      .recent.filter((r) => r.method === "GET")
      .at(-1);
    return {
      beside: simU.control.stats().maxInFlight === 2,
      b2AfterU: (b2Call?.at ?? 0) >= (uCalls.at(-1)?.at ?? Infinity),
    };
  }

  it("is not held behind the array's own call: its connect takes the first free place", async () => {
    expect(await secondCallBeside(false)).toEqual({ beside: false, b2AfterU: false });
    expect(await secondCallBeside(true)).toEqual({ beside: true, b2AfterU: true });
  });
});

describe("sockets beyond `connections`", () => {
  /**
   * One array, two connections, every call held 200 ms. Three calls and then one more at once: without urgency
   * two run and two wait; an urgent third call (an approval's recheck) runs beside the first two on a socket of
   * its own, and the call after it still waits: only urgent calls go past `connections`.
   */
  async function atOnce(urgentThird: boolean, callsAtOnce: number): Promise<number> {
    const sim = await startSim();
    const pool = poolOf(
      [
        simConfig(sim, {
          connections: 2,
          rate: { maxConcurrent: callsAtOnce, minSpacingMs: 0, maxQueue: 10 },
        }),
      ],
      { probeInBackground: false },
    );
    const [a] = pool.list();
    if (!a) throw new Error("one array");
    await a.get("/file-systems", { query: { limit: 1 } });
    sim.control.addLatency({ ms: 200 });
    sim.control.resetStats();
    const read = () => a.get("/file-systems", { query: { limit: 1 } });
    const calls = [read(), read(), urgentThird ? urgently(read) : read(), read()];
    await Promise.all(calls);
    return sim.control.stats().maxInFlight;
  }

  it("are for urgent calls only, one more than the array's own", async () => {
    // The limiter's calls at once as the sockets (the load's tuning), and above them (the default).
    for (const callsAtOnce of [2, 8]) {
      expect(await atOnce(false, callsAtOnce)).toBe(2);
      expect(await atOnce(true, callsAtOnce)).toBe(3);
    }
  });
});
