/**
 * The simulator on the REST 2.x wire, over real HTTPS: the versions it lists, 2.x paths and parameter names read
 * through the dialect into the same handlers, the 2.x envelope, paging, errors, rate-limit headers and
 * X-Request-ID, and the api-token login.
 */
import { afterEach, describe, expect, it } from "vitest";
import { CURRENT_ARRAY_VERSIONS, defaultVersions } from "../../src/simulator/options.js";
import { clientFor, openSim, type SimClient } from "./server-helpers.js";

let c: SimClient | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

type Listing = {
  items: { name: string }[];
  continuation_token?: string;
  total_item_count?: number;
  pagination_info?: unknown;
};

describe("versions", () => {
  it("serves 1.0–1.12 and 2.0–2.28 when told nothing, listed ascending, 1.x then 2.x", async () => {
    expect(defaultVersions({})).toBe(CURRENT_ARRAY_VERSIONS);
    expect(defaultVersions({ ARRAY_SIM_VERSIONS: "2.0-2.24" })).toBe("2.0-2.24");
    c = await openSim({ versions: defaultVersions({}) });
    const { versions } = (await c.call("GET", "/api/api_version")).json() as { versions: string[] };
    expect(versions.slice(0, 2)).toEqual(["1.0", "1.1"]);
    expect(versions.slice(13, 16)).toEqual(["1.12", "2.0", "2.1"]);
    expect(versions.at(-1)).toBe("2.28");
  });

  it("a 2.x-only array answers 1.x paths 404 in the 2.x error body", async () => {
    c = await openSim({ versions: "2.0-2.24" });
    const { versions } = (await c.call("GET", "/api/api_version")).json() as { versions: string[] };
    expect(versions).toHaveLength(25);
    const r = await c.call("GET", "/api/1.12/file-systems");
    expect(r.status).toBe(404);
    expect((await c.call("GET", "/api/2.25/file-systems")).status).toBe(404);
  });
});

describe("the 2.x wire", () => {
  it("logs in with the api token, lists with 2.x paging and envelope, echoes X-Request-ID", async () => {
    c = await openSim({ versions: "2.0-2.28" });
    const headers = { "x-auth-token": await c.login(), "x-request-id": "req-42" };
    const first = await c.call("GET", "/api/2.28/file-systems?limit=2", { headers });
    expect(first.status).toBe(200);
    expect(first.headers["x-request-id"]).toBe("req-42");
    const page = first.json() as Listing;
    expect(page.pagination_info).toBeUndefined();
    expect(page.items).toHaveLength(2);
    expect(page.total_item_count).toBeGreaterThan(2);
    expect(page.continuation_token).toEqual(expect.any(String));
    const names = page.items.map((i) => i.name);
    let token = page.continuation_token;
    while (token) {
      const next = (
        await c.call(
          "GET",
          `/api/2.28/file-systems?limit=2&continuation_token=${encodeURIComponent(token)}`,
          {
            headers,
          },
        )
      ).json() as Listing;
      names.push(...next.items.map((i) => i.name));
      token = next.continuation_token;
    }
    expect(names).toHaveLength(page.total_item_count ?? 0);
    const offset = (
      await c.call("GET", "/api/2.28/file-systems?sort=name&offset=1&limit=1", { headers })
    ).json();
    expect((offset as Listing).items[0]?.name).toBe([...names].sort()[1]);
    const made = await c.call("GET", "/api/2.28/arrays", {
      headers: { "x-auth-token": headers["x-auth-token"] },
    });
    expect(made.headers["x-request-id"]).toEqual(expect.any(String));
  });

  it("renamed paths and parameters reach the same handlers: smtp-servers, names on a file system update", async () => {
    c = await openSim({ versions: "1.0-1.12,2.0-2.28" });
    const headers = { "x-auth-token": await c.login(), "content-type": "application/json" };
    const smtp = await c.call("PATCH", "/api/2.28/smtp-servers", {
      headers,
      body: JSON.stringify({ relay_host: "smtp9.example.com" }),
    });
    expect(smtp.status).toBe(200);
    expect((await c.call("GET", "/api/2.28/smtp", { headers })).status).toBe(404);
    const v1 = (await c.call("GET", "/api/1.12/smtp", { headers })).json() as {
      items: { relay_host: string }[];
    };
    expect(v1.items[0]?.relay_host).toBe("smtp9.example.com");
    const created = await c.call("POST", "/api/2.28/file-systems?names=wire2x", {
      headers,
      body: JSON.stringify({ provisioned: 1024 ** 3 }),
    });
    expect(created.status).toBe(200);
    const patched = await c.call("PATCH", "/api/2.28/file-systems?names=wire2x", {
      headers,
      body: JSON.stringify({ provisioned: 2 * 1024 ** 3 }),
    });
    expect(patched.status).toBe(200);
    const read = (await c.call("GET", "/api/1.12/file-systems?names=wire2x", { headers })).json() as {
      items: { provisioned: number }[];
    };
    expect(read.items[0]?.provisioned).toBe(2 * 1024 ** 3);
    const snap = await c.call("POST", "/api/2.28/file-system-snapshots?source_names=wire2x", { headers });
    expect(snap.status).toBe(200);
  });

  it("errors: 400 with errors[{context, message}] for a refused request, 403 with a top-level message", async () => {
    c = await openSim({ versions: "2.0-2.28" });
    const refused = await c.call("GET", "/api/2.28/file-systems");
    expect(refused.status).toBe(403);
    const body = refused.json() as { message: string; errors: { message: string; context: string }[] };
    expect(body.message).toMatch(/session/);
    expect(body.errors[0]?.message).toBe(body.message);
    const headers = { "x-auth-token": await c.login() };
    const bad = await c.call("GET", "/api/2.28/file-systems?limit=-1", { headers });
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({ errors: [{ context: "limit", message: expect.stringContaining("limit") }] });
  });

  it("a throttled 2.x call is a 429 with the rate-limit headers Pure's SDK reads", async () => {
    const sim = await openSim({ versions: "1.0-1.12,2.0-2.28" });
    c = clientFor(sim.sim);
    await sim.agent.close();
    sim.sim.control.failRequests({ path: "/arrays", status: 429, retryAfter: 1, count: 2 });
    const headers = { "x-auth-token": await c.login() };
    const r2 = await c.call("GET", "/api/2.28/arrays", { headers });
    expect(r2.status).toBe(429);
    expect(r2.headers["x-ratelimit-remaining-second"]).toBe("0");
    expect(r2.headers["x-ratelimit-limit-minute"]).toEqual(expect.any(String));
    const r1 = await c.call("GET", "/api/1.12/arrays", { headers });
    expect(r1.status).toBe(429);
    expect(r1.headers["x-ratelimit-remaining-second"]).toBeUndefined();
  });
});
