import { describe, expect, it } from "vitest";
import { Secret } from "../../src/config/secret.js";
import { apiTokenCredential } from "../../src/flashblade/credentials.js";
import { Session } from "../../src/flashblade/session.js";
import type { WireRequest, WireResponse } from "../../src/flashblade/transport.js";
import { silentLogger } from "../../src/logger.js";
import { requestCount } from "../helpers/wire.js";
import { failure } from "./helpers.js";
import { API_TOKEN, logSink, poolOf, simConfig, startSim } from "./sim.js";

describe("array sessions", () => {
  it("1,000 concurrent calls to a cold array log in once and ask for the version once", async () => {
    const sim = await startSim();
    const client = poolOf([simConfig(sim)]).list()[0]!;
    const results = await Promise.all(Array.from({ length: 1000 }, () => client.get("/arrays")));
    expect(results.every((r) => r.items.length === 1)).toBe(true);
    const stats = sim.control.stats();
    expect(stats.logins).toBe(1);
    expect(stats.requests["GET /api/api_version"]).toBe(1);
    expect(requestCount(stats, "GET /api/1.12/arrays")).toBe(1000);
  });

  it("logs in again once when the session ends in the middle of a burst", async () => {
    const sim = await startSim();
    const client = poolOf([
      simConfig(sim, { rate: { maxConcurrent: 4, minSpacingMs: 0, maxQueue: 1000 } }),
    ]).list()[0]!;
    await client.get("/arrays");
    let done = 0;
    const burst = Array.from({ length: 300 }, () =>
      client.get("/arrays").then((page) => {
        done++;
        // The array forgets every session while the rest of the burst is queued or on the wire.
        if (done === 100) sim.control.invalidateSessions();
        return page;
      }),
    );
    const pages = await Promise.all(burst);
    expect(pages).toHaveLength(300);
    const stats = sim.control.stats();
    expect(stats.logins).toBe(2);
    // Only calls already on the wire carried the dead token (at most max_concurrent); each was retried once.
    // Calls still queued picked up the new session without a round trip.
    const calls = requestCount(stats, "GET /api/1.12/arrays");
    expect(calls).toBeGreaterThan(301);
    expect(calls).toBeLessThanOrEqual(301 + 4);
  });

  it("re-logs in after idle expiry (injected clock)", async () => {
    let now = Date.parse("2026-05-01T10:00:00Z");
    const sim = await startSim({ clock: () => now, sessionIdleMs: 30 * 60_000 });
    const client = poolOf([simConfig(sim)], { now: () => now }).list()[0]!;
    await client.get("/arrays");
    expect(client.health().sessionAgeMs).toBe(0);
    now += 31 * 60_000;
    await client.get("/arrays");
    expect(sim.control.stats().logins).toBe(2);
    expect(client.health().sessionAgeMs).toBe(0);
  });

  it("a 403 that persists after a fresh login is reported, not looped", async () => {
    const sim = await startSim();
    const client = poolOf([simConfig(sim)]).list()[0]!;
    await client.get("/arrays");
    sim.control.failRequests({
      path: "/arrays",
      status: 403,
      message: "Permission denied for role readonly.",
    });
    const err = await failure(client.get("/arrays"));
    expect(err.code).toBe("ARRAY_REJECTED");
    expect(err.message).toContain("Permission denied for role readonly.");
    const stats = sim.control.stats();
    expect(stats.logins).toBe(2);
    expect(requestCount(stats, "GET /api/1.12/arrays")).toBe(3);
  });

  it("a refused API token is ARRAY_AUTH_FAILED and never echoed", async () => {
    const sim = await startSim({ apiTokens: [{ token: "T-other", username: "pureuser" }] });
    const client = poolOf([simConfig(sim)]).list()[0]!;
    const err = await failure(client.get("/file-systems"));
    expect(err.code).toBe("ARRAY_AUTH_FAILED");
    expect(err.message).toContain("api_token_env");
    expect(err.message).not.toContain(API_TOKEN);
    expect(client.health().lastError?.code).toBe("ARRAY_AUTH_FAILED");
  });

  it("sends the API token only as a header and close() logs out", async () => {
    const sim = await startSim();
    const client = poolOf([simConfig(sim)]).list()[0]!;
    await client.get("/arrays");
    const login = sim.control.stats().recent.find((r) => r.path === "/api/login");
    expect(login?.query).toBe("");
    expect(login?.headers["api-token"]).toBe("[redacted]");
    await client.close();
    expect(sim.control.stats().logouts).toBe(1);
    expect(sim.control.activeSessions()).toBe(0);
    expect(logSink.lines.some((l) => l.includes("logged out of array"))).toBe(true);
  });

  it("once logged out it never logs in again: a call still under way when the bot stops is refused", async () => {
    // The array's wire, injected: every login and logout the session sends is seen here.
    const sent: string[] = [];
    const send = async (req: WireRequest): Promise<WireResponse> => {
      sent.push(req.path);
      return { status: 200, headers: { "x-auth-token": `tok-${sent.length}` }, text: "{}" };
    };
    const session = new Session(
      "lab-1",
      apiTokenCredential("lab-1", new Secret("T-1")),
      send,
      silentLogger(),
      Date.now,
    );
    expect(await session.token()).toBe("tok-1");
    await session.logout();
    // An alert poll answered 401 after the logout asks for a fresh session: none is made.
    await expect(session.refresh("tok-1")).rejects.toThrow(/shutting down/);
    await expect(session.token()).rejects.toThrow(/shutting down/);
    expect(sent).toEqual(["/api/login", "/api/logout"]);
  });

  it("a 401 is treated like a 403", async () => {
    const sim = await startSim();
    const client = poolOf([simConfig(sim)]).list()[0]!;
    await client.get("/arrays");
    sim.control.failRequests({ path: "/arrays", status: 401, count: 1 });
    await client.get("/arrays");
    expect(sim.control.stats().logins).toBe(2);
    expect(requestCount(sim.control.stats(), "GET /api/1.12/arrays")).toBe(3);
  });
});
