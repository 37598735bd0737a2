import { afterEach, describe, expect, it } from "vitest";
import { UserFacingError } from "../../src/errors.js";
import { errorMessage, manualSleep, openSim, type SimClient } from "./server-helpers.js";

let clients: SimClient[] = [];
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  clients = [];
});

async function sim(opts: Parameters<typeof openSim>[0] = {}): Promise<SimClient> {
  const c = await openSim(opts);
  clients.push(c);
  return c;
}

describe("latency", () => {
  it("delays only matching requests, by the configured time", async () => {
    const sleep = manualSleep();
    const c = await sim({ sleep: sleep.sleep });
    const h = { "x-auth-token": await c.login() };
    c.sim.control.addLatency({ ms: 250, path: "/arrays" });
    const slow = c.send("GET /api/1.12/arrays", h);
    await sleep.pending(1);
    // Another path is answered while the delayed one waits.
    expect((await c.call("GET", "/api/api_version")).status).toBe(200);
    expect(sleep.waits).toEqual([250]);
    expect(c.sim.control.stats().inFlight).toBe(1);
    sleep.releaseAll();
    expect((await slow).status).toBe(200);
  });

  it("sums latency rules and stops after clearFaults", async () => {
    const sleep = manualSleep();
    const c = await sim({ sleep: sleep.sleep });
    c.sim.control.addLatency({ ms: 100 });
    const id = c.sim.control.addLatency({ ms: 50, path: "/api/api_version", method: "get" });
    const first = c.call("GET", "/api/api_version");
    await sleep.pending(1);
    sleep.releaseAll();
    await first;
    c.sim.control.clearFaults(id);
    const second = c.call("GET", "/api/api_version");
    await sleep.pending(1);
    sleep.releaseAll();
    await second;
    c.sim.control.clearFaults();
    await c.call("GET", "/api/api_version");
    expect(sleep.waits).toEqual([150, 100]);
  });
});

describe("failures", () => {
  it("fails the next N matching requests with the status and Retry-After, then recovers", async () => {
    const c = await sim();
    const h = { "x-auth-token": await c.login() };
    c.sim.control.failRequests({ status: 503, count: 2, retryAfter: 3, path: "/arrays", method: "GET" });
    for (let i = 0; i < 2; i++) {
      const r = await c.send("GET /api/1.12/arrays", h);
      expect(r.status).toBe(503);
      expect(r.headers["retry-after"]).toBe("3");
      expect(r.headers["content-type"]).toBe("application/json");
      expect(errorMessage(r)).toContain("503");
    }
    expect((await c.send("GET /api/1.12/arrays", h)).status).toBe(200);
  });

  it("matches on method", async () => {
    const c = await sim();
    c.sim.control.failRequests({ status: 500, method: "POST", count: 1 });
    expect((await c.call("GET", "/api/api_version")).status).toBe(200);
    const login = await c.call("POST", "/api/login", { headers: { "api-token": "T-demo" } });
    expect(login.status).toBe(500);
    expect(login.headers["x-auth-token"]).toBeUndefined();
    expect(login.headers["retry-after"]).toBeUndefined();
  });

  it("chooses which requests fail from the seed, reproducibly", async () => {
    const run = async (seed: number) => {
      const c = await sim({ seed });
      c.sim.control.failRequests({ status: 500, share: 0.5 });
      const out: number[] = [];
      for (let i = 0; i < 40; i++) out.push((await c.call("GET", "/api/api_version")).status);
      return out;
    };
    const a = await run(7);
    const b = await run(7);
    const other = await run(8);
    expect(a).toEqual(b);
    expect(a).toContain(500);
    expect(a).toContain(200);
    expect(other).not.toEqual(a);
  });

  it("rejects invalid fault definitions with a coded error", () => {
    return sim().then((c) => {
      expect(() => c.sim.control.failRequests({ status: 503, share: 2 })).toThrow(UserFacingError);
      expect(() => c.sim.control.failRequests({ status: 200 })).toThrow(/status/);
      expect(() => c.sim.control.addLatency({ ms: -1 })).toThrow(/ms/);
    });
  });
});

describe("connection resets and outages", () => {
  it("destroys the connection of a matching request without answering", async () => {
    const c = await sim();
    c.sim.control.resetConnections({ count: 1, path: "/api/api_version" });
    await expect(c.call("GET", "/api/api_version")).rejects.toThrow();
    expect((await c.call("GET", "/api/api_version")).status).toBe(200);
    const outcomes = c.sim.control.stats().recent.map((e) => e.outcome);
    expect(outcomes).toEqual(["reset", 200]);
  });

  it("goes down (connections refused) and comes back up on the same port", async () => {
    const c = await sim();
    const token = await c.login();
    await c.sim.control.down();
    expect(c.sim.control.isDown).toBe(true);
    const err = await c.call("GET", "/api/api_version").catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe("ECONNREFUSED");
    await c.sim.control.up();
    expect(c.sim.control.isDown).toBe(false);
    // Sessions survive a network outage: only the connection went away.
    const r = await c.send("GET /api/1.12/arrays", { "x-auth-token": token });
    expect(r.status).toBe(200);
  });

  it("comes back by itself after a timed outage", async () => {
    const sleep = manualSleep();
    const c = await sim({ sleep: sleep.sleep });
    await c.sim.control.down({ forMs: 5000 });
    await sleep.pending(1);
    expect(sleep.waits).toEqual([5000]);
    expect(c.sim.control.isDown).toBe(true);
    sleep.releaseAll();
    await c.sim.control.whenUp();
    expect(c.sim.control.isDown).toBe(false);
    expect((await c.call("GET", "/api/api_version")).status).toBe(200);
  });
});

describe("request log", () => {
  it("counts requests by method and path and tracks peak concurrency", async () => {
    const sleep = manualSleep();
    const c = await sim({ sleep: sleep.sleep });
    c.sim.control.addLatency({ ms: 10, path: "/api/api_version" });
    const calls = [1, 2, 3].map(() => c.call("GET", "/api/api_version"));
    await sleep.pending(3);
    expect(c.sim.control.stats().inFlight).toBe(3);
    sleep.releaseAll();
    await Promise.all(calls);
    await c.call("POST", "/api/logout");
    const stats = c.sim.control.stats();
    expect(stats.requests).toEqual({ "GET /api/api_version": 3, "POST /api/logout": 1 });
    expect(stats.maxInFlight).toBe(3);
    expect(stats.inFlight).toBe(0);
    expect(stats.total).toBe(4);
    c.sim.control.resetStats();
    expect(c.sim.control.stats()).toMatchObject({ total: 0, requests: {}, recent: [], maxInFlight: 0 });
  });

  it("keeps query strings as sent and never keeps tokens", async () => {
    const c = await sim();
    await c.call("POST", "/api/login?api-token=T-demo");
    const token = await c.login();
    await c.call("GET", "/api/1.12/arrays?names=fs1%2Cfs+2", {
      headers: { "x-auth-token": token, accept: "application/json" },
    });
    const recent = c.sim.control.stats().recent;
    expect(recent.map((e) => e.query)).toEqual(["api-token=[redacted]", "", "names=fs1%2Cfs+2"]);
    expect(recent[1]?.headers["api-token"]).toBe("[redacted]");
    expect(recent[2]?.headers["x-auth-token"]).toBe("[redacted]");
    expect(recent[2]?.headers.accept).toBe("application/json");
    expect(JSON.stringify(recent)).not.toContain(token);
    expect(JSON.stringify(recent)).not.toContain("T-demo");
  });
});
