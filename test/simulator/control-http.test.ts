import { afterEach, describe, expect, it } from "vitest";
import { errorMessage, manualSleep, openSim, type SimClient } from "./server-helpers.js";

let c: SimClient | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

const json = { "content-type": "application/json" };
const post = (client: SimClient, op: string, body: unknown) =>
  client.call("POST", `/_control/${op}`, { headers: json, body: JSON.stringify(body) });

describe("HTTP control interface", () => {
  it("does not exist unless enabled", async () => {
    c = await openSim();
    const r = await post(c, "fail", { status: 503 });
    expect(r.status).toBe(404);
    expect((await c.call("GET", "/api/api_version")).status).toBe(200);
  });

  it("adds and clears failures; control calls do not appear in the request log", async () => {
    c = await openSim({ controlPath: true });
    const added = await post(c, "fail", { status: 503, count: 1, retryAfter: 2, path: "/api/api_version" });
    expect(added.status).toBe(200);
    expect(added.json()).toEqual({ id: expect.any(Number) });
    const failed = await c.call("GET", "/api/api_version");
    expect(failed.status).toBe(503);
    expect(failed.headers["retry-after"]).toBe("2");
    await post(c, "fail", { status: 500 });
    expect((await post(c, "clear-faults", {})).status).toBe(200);
    expect((await c.call("GET", "/api/api_version")).status).toBe(200);
    const stats = await c.call("GET", "/_control/stats");
    expect(stats.json()).toMatchObject({ requests: { "GET /api/api_version": 2 }, total: 2 });
  });

  it("adds latency and connection resets", async () => {
    const sleep = manualSleep();
    c = await openSim({ controlPath: true, sleep: sleep.sleep });
    await post(c, "latency", { ms: 40, method: "GET" });
    const slow = c.call("GET", "/api/api_version");
    await sleep.pending(1);
    sleep.releaseAll();
    expect((await slow).status).toBe(200);
    expect(sleep.waits).toEqual([40]);
    await post(c, "clear-faults", {});
    await post(c, "reset-connections", { count: 1 });
    await expect(c.call("GET", "/api/api_version")).rejects.toThrow();
    expect((await c.call("GET", "/api/api_version")).status).toBe(200);
  });

  it("invalidates sessions", async () => {
    c = await openSim({ controlPath: true });
    const token = await c.login();
    const r = await post(c, "invalidate-sessions", {});
    expect(r.json()).toEqual({ invalidated: 1 });
    expect((await c.send("GET /api/1.12/arrays", { "x-auth-token": token })).status).toBe(403);
    expect((await c.call("GET", "/_control/sessions")).json()).toEqual({ active: 0 });
  });

  it("acknowledges a timed outage before going down, then comes back", async () => {
    const sleep = manualSleep();
    c = await openSim({ controlPath: true, sleep: sleep.sleep });
    const r = await post(c, "down", { forMs: 1000 });
    expect(r.status).toBe(200);
    await sleep.pending(1);
    expect(c.sim.control.isDown).toBe(true);
    await expect(c.call("GET", "/api/api_version")).rejects.toMatchObject({ code: "ECONNREFUSED" });
    sleep.releaseAll();
    await c.sim.control.whenUp();
    expect((await c.call("GET", "/api/api_version")).status).toBe(200);
  });

  it("answers bad input with 400 and a reason, unknown operations with 404 and the list", async () => {
    c = await openSim({ controlPath: true });
    const badShare = await post(c, "fail", { status: 503, share: 1.5 });
    expect(badShare.status).toBe(400);
    expect(errorMessage(badShare)).toContain("share");
    const extra = await post(c, "latency", { ms: 5, color: "red" });
    expect(extra.status).toBe(400);
    const notJson = await c.call("POST", "/_control/fail", { body: "{" });
    expect(notJson.status).toBe(400);
    expect(errorMessage(notJson)).toContain("not valid JSON");
    const unknown = await post(c, "explode", {});
    expect(unknown.status).toBe(404);
    expect(errorMessage(unknown)).toContain("POST fail");
  });
});
