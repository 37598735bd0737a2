import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_IDLE_MS } from "../../src/simulator/index.js";
import { REST2 } from "../helpers/wire.js";
import { errorMessage, manualClock, openSim, type SimClient } from "./server-helpers.js";

let c: SimClient | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

describe("unversioned endpoints", () => {
  it("serves api_version without auth, ascending, as JSON", async () => {
    c = await openSim({ versions: "1.8-1.10" });
    const r = await c.call("GET", "/api/api_version");
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("application/json");
    expect(r.json()).toEqual({ versions: ["1.8", "1.8.1", "1.9", "1.10"] });
  });

  it("logs in with the api-token header: 200, a UUID x-auth-token and the username", async () => {
    c = await openSim({ apiTokens: [{ token: "T-1", username: "alice" }] });
    const r = await c.call("POST", "/api/login", { headers: { "api-token": "T-1" } });
    expect(r.status).toBe(200);
    expect(r.headers["x-auth-token"]).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(r.json()).toEqual({ username: "alice" });
  });

  it("also accepts the token as the api-token query parameter, as the spec documents", async () => {
    c = await openSim({ apiTokens: [{ token: "T-q", username: "bob" }] });
    const r = await c.call("POST", "/api/login?api-token=T-q");
    expect(r.status).toBe(200);
    expect(r.json()).toEqual({ username: "bob" });
  });

  it("refuses a bad or missing token with 400, an error body and no session header", async () => {
    c = await openSim();
    const bad = await c.call("POST", "/api/login", { headers: { "api-token": "T-wrong" } });
    expect(bad.status).toBe(400);
    expect(bad.headers["x-auth-token"]).toBeUndefined();
    expect(bad.json()).toEqual({
      errors: [{ context: "api-token", message: expect.stringContaining("not valid") }],
    });
    const missing = await c.call("POST", "/api/login");
    expect(missing.status).toBe(400);
    expect(missing.headers["x-auth-token"]).toBeUndefined();
    expect(errorMessage(missing)).toContain("api-token");
    expect(c.sim.control.stats()).toMatchObject({ logins: 0, failedLogins: 2 });
  });

  it("accepts login and logout on a versioned path too", async () => {
    // About 1.x: /api/1.N/login and /logout are 1.x paths; 2.x logs in at /api/login only.
    c = await openSim({ versions: "1.0-1.12" });
    const r = await c.call("POST", "/api/1.12/login", { headers: { "api-token": "T-demo" } });
    expect(r.status).toBe(200);
    const token = r.headers["x-auth-token"] as string;
    expect((await c.call("GET", "/api/1.12/arrays", { headers: { "x-auth-token": token } })).status).toBe(
      200,
    );
    expect((await c.call("POST", "/api/1.12/logout", { headers: { "x-auth-token": token } })).status).toBe(
      200,
    );
    expect((await c.call("GET", "/api/1.12/arrays", { headers: { "x-auth-token": token } })).status).toBe(
      403,
    );
  });

  it("answers logout without a token, with an unknown token, and ends a real session", async () => {
    c = await openSim();
    const none = await c.call("POST", "/api/logout");
    expect(none.status).toBe(200);
    expect(none.text).toBe("");
    expect((await c.call("POST", "/api/logout", { headers: { "x-auth-token": "nope" } })).status).toBe(200);
    const token = await c.login();
    expect(c.sim.control.activeSessions()).toBe(1);
    expect((await c.call("POST", "/api/logout", { headers: { "x-auth-token": token } })).status).toBe(200);
    expect(c.sim.control.activeSessions()).toBe(0);
    expect(c.sim.control.stats().logouts).toBe(3);
  });

  it("serves the array's banner setting, so changing it changes the login banner", async () => {
    c = await openSim();
    const token = await c.login();
    const patched = await c.send('PATCH /api/1.12/arrays {"banner":"Maintenance tonight"}', {
      "x-auth-token": token,
    });
    expect(patched.status).toBe(200);
    expect((await c.call("GET", "/api/login-banner")).json()).toEqual({
      login_banner: "Maintenance tonight",
    });
  });

  it("serves the login banner only when the array speaks 1.10 or later", async () => {
    c = await openSim({ versions: "1.0-1.10", loginBanner: "Hello admins" });
    const r = await c.call("GET", "/api/login-banner");
    expect(r.status).toBe(200);
    expect(r.json()).toEqual({ login_banner: "Hello admins" });
    await c.close();
    c = await openSim({ versions: "1.0-1.9" });
    const old = await c.call("GET", "/api/login-banner");
    expect(old.status).toBe(404);
    expect(errorMessage(old)).toContain("1.10");
  });
});

describe("sessions", () => {
  it("answers 403 with an errors body for a missing or unknown session token", async () => {
    c = await openSim();
    const attempts: Record<string, string>[] = [
      {},
      { "x-auth-token": "3be3d489-55c6-4643-90ac-a476dbc98812" },
    ];
    for (const headers of attempts) {
      const r = await c.send("GET /api/1.12/arrays", headers);
      expect(r.status).toBe(403);
      expect(r.headers["content-type"]).toBe("application/json");
      const message = expect.stringContaining("x-auth-token");
      // 2.x bodies repeat the first error's message at the top level; 1.x has only the errors.
      expect(r.json()).toEqual({ errors: [{ context: "/arrays", message }], ...(REST2 ? { message } : {}) });
    }
  });

  it("expires a session after the idle time, and every call refreshes it", async () => {
    const clock = manualClock();
    c = await openSim({ clock: clock.now, sessionIdleMs: 1000 });
    const token = await c.login();
    const get = () => c!.send("GET /api/1.12/arrays", { "x-auth-token": token });
    clock.advance(999);
    expect((await get()).status).toBe(200);
    clock.advance(1000);
    expect((await get()).status).toBe(200);
    clock.advance(1001);
    expect((await get()).status).toBe(403);
    // An expired session stays dead even if time were to go back.
    expect(c.sim.control.activeSessions()).toBe(0);
  });

  it("defaults to a 30-minute idle limit", async () => {
    const clock = manualClock();
    c = await openSim({ clock: clock.now });
    const token = await c.login();
    clock.advance(DEFAULT_IDLE_MS);
    expect((await c.send("GET /api/1.12/arrays", { "x-auth-token": token })).status).toBe(200);
    clock.advance(DEFAULT_IDLE_MS + 1);
    expect((await c.send("GET /api/1.12/arrays", { "x-auth-token": token })).status).toBe(403);
  });

  it("invalidates every session on demand, and a fresh login works again", async () => {
    c = await openSim();
    const t1 = await c.login();
    const t2 = await c.login();
    expect(c.sim.control.invalidateSessions()).toBe(2);
    for (const t of [t1, t2]) {
      expect((await c.send("GET /api/1.12/arrays", { "x-auth-token": t })).status).toBe(403);
    }
    const t3 = await c.login();
    expect((await c.send("GET /api/1.12/arrays", { "x-auth-token": t3 })).status).toBe(200);
    expect(c.sim.control.stats().logins).toBe(3);
  });
});
