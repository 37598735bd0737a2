import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { UserFacingError } from "../../src/errors.js";
import { createLogger } from "../../src/logger.js";
import { startSimulator } from "../../src/simulator/index.js";
import { SimHttpError, type SimRequest } from "../../src/simulator/types.js";
import { errorMessage, openSim, type SimClient } from "./server-helpers.js";

/**
 * These tests are about the 1.x wire: its version gates (1.2, 1.3, 1.8.1), its paths and its envelope, so their
 * arrays serve 1.x whatever the suite's run (test:rest2 flips unpinned arrays to 2.x).
 */
const V1 = { versions: "1.0-1.12" };

let c: SimClient | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

async function authed(client: SimClient): Promise<Record<string, string>> {
  return { "x-auth-token": await client.login() };
}

describe("version and endpoint routing", () => {
  it("answers 404 naming the version when it is outside the served range, before asking for a session", async () => {
    c = await openSim({ versions: "1.0-1.8" });
    const r = await c.call("GET", "/api/1.12/file-systems");
    expect(r.status).toBe(404);
    expect(errorMessage(r)).toContain("1.12");
    expect(errorMessage(r)).toContain("1.0 to 1.8");
  });

  it("answers 404 for an endpoint newer than the requested version, naming where it starts", async () => {
    c = await openSim(V1);
    const h = await authed(c);
    const r = await c.call("GET", "/api/1.2/arrays", { headers: h });
    expect(r.status).toBe(404);
    expect(errorMessage(r)).toContain("/arrays is not available in REST 1.2 (it exists from 1.3)");
    expect((await c.call("GET", "/api/1.3/arrays", { headers: h })).status).toBe(200);
    expect((await c.call("GET", "/api/1.8.1/arrays", { headers: h })).status).toBe(200);
  });

  it("answers 404 for unknown paths and 405 with Allow for a wrong method", async () => {
    c = await openSim(V1);
    const h = await authed(c);
    const unknown = await c.call("GET", "/api/1.12/no-such-thing", { headers: h });
    expect(unknown.status).toBe(404);
    expect(errorMessage(unknown)).toContain("/no-such-thing");
    expect((await c.call("GET", "/nothing-here")).status).toBe(404);
    const wrong = await c.call("PUT", "/api/1.12/file-systems", { headers: h });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe("DELETE, GET, PATCH, POST");
    expect((await c.call("POST", "/api/arrays-typo")).status).toBe(404);
    const doubled = await c.call("GET", "//api/api_version");
    expect(doubled.status).toBe(404);
    expect(errorMessage(doubled)).toContain("//api/api_version");
  });
});

describe("version and endpoint routing on 2.x", () => {
  it("answers 404 outside the served range, 404 for unknown paths and 405 with Allow for a wrong method", async () => {
    c = await openSim({ versions: "2.0-2.28" });
    const outside = await c.call("GET", "/api/1.12/file-systems");
    expect(outside.status).toBe(404);
    expect(errorMessage(outside)).toContain("2.0 to 2.28");
    const h = await authed(c);
    const unknown = await c.call("GET", "/api/2.28/no-such-thing", { headers: h });
    expect(unknown.status).toBe(404);
    expect(errorMessage(unknown)).toContain("/no-such-thing");
    const wrong = await c.call("PUT", "/api/2.28/file-systems", { headers: h });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe("DELETE, GET, PATCH, POST");
  });
});

describe("handler results and errors", () => {
  function recordingHandlers(seen: SimRequest[]) {
    return (_method: string, path: string) => (req: SimRequest) => {
      seen.push(req);
      switch (path) {
        case "/file-systems":
          if (req.method === "DELETE") return { empty: true };
          if (req.method === "POST") return { items: [{ name: "new" }] };
          return {
            envelope: { pagination_info: { continuation_token: null, total_item_count: 0 }, items: [] },
          };
        case "/buckets":
          throw new SimHttpError(400, "Bucket does not exist.", "b1");
        case "/dns":
          throw new Error("bug in a handler");
        default:
          return {};
      }
    };
  }

  it("wraps items, passes envelopes through and answers DELETE with an empty body", async () => {
    const seen: SimRequest[] = [];
    c = await openSim({ ...V1, handlers: recordingHandlers(seen) });
    const h = await authed(c);
    const post = await c.call("POST", "/api/1.9/file-systems?x=1", {
      headers: { ...h, "content-type": "application/json" },
      body: '{"name":"new","provisioned":1024}',
    });
    expect(post.status).toBe(200);
    expect(post.headers["content-type"]).toBe("application/json");
    expect(post.json()).toEqual({ items: [{ name: "new" }] });
    expect(seen[0]).toMatchObject({
      method: "POST",
      path: "/file-systems",
      version: "1.9",
      body: { name: "new", provisioned: 1024 },
      user: "pureuser",
    });
    expect(seen[0]?.query.string("x")).toBe("1");
    const get = await c.call("GET", "/api/1.12/file-systems", { headers: h });
    expect(get.json()).toEqual({
      pagination_info: { continuation_token: null, total_item_count: 0 },
      items: [],
    });
    const del = await c.call("DELETE", "/api/1.12/file-systems?name=x", { headers: h });
    expect(del.status).toBe(200);
    expect(del.text).toBe("");
  });

  it("renders SimHttpError as its status with the errors body", async () => {
    c = await openSim({ ...V1, handlers: recordingHandlers([]) });
    const r = await c.call("GET", "/api/1.12/buckets", { headers: await authed(c) });
    expect(r.status).toBe(400);
    expect(r.json()).toEqual({ errors: [{ context: "b1", message: "Bucket does not exist." }] });
  });

  it("answers 400 for a body that is not JSON, without calling the handler", async () => {
    const seen: SimRequest[] = [];
    c = await openSim({ ...V1, handlers: recordingHandlers(seen) });
    const r = await c.call("POST", "/api/1.12/file-systems", { headers: await authed(c), body: "{name:" });
    expect(r.status).toBe(400);
    expect(errorMessage(r)).toContain("not valid JSON");
    expect(seen).toHaveLength(0);
  });

  it("turns an unexpected handler error into a 500 error body and logs it", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    c = await openSim({
      ...V1,
      handlers: recordingHandlers([]),
      logger: createLogger({ level: "error", destination: sink }),
    });
    const r = await c.call("GET", "/api/1.12/dns", { headers: await authed(c) });
    expect(r.status).toBe(500);
    expect(errorMessage(r)).toContain("Internal error");
    expect(r.text).not.toContain("bug in a handler");
    expect(lines.join("")).toContain("bug in a handler");
  });

  it("refuses an oversized body with 413", async () => {
    c = await openSim({ ...V1, handlers: recordingHandlers([]) });
    const r = await c.call("POST", "/api/1.12/file-systems", {
      headers: await authed(c),
      body: `"${"x".repeat(9 * 1024 * 1024)}"`,
    });
    expect(r.status).toBe(413);
  });
});

describe("options", () => {
  it("rejects a version range that names no known version with a coded, readable error", async () => {
    const err = await startSimulator({ versions: "3.0-3.5" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserFacingError);
    expect((err as UserFacingError).code).toBe("SIM_BAD_OPTIONS");
    expect((err as Error).message).toContain("3.0-3.5");
  });

  it("rejects an out-of-range port and an empty token list", async () => {
    await expect(startSimulator({ port: 70000 })).rejects.toThrow(/port/);
    await expect(startSimulator({ apiTokens: [] })).rejects.toThrow(/API token/);
  });

  it("uses a given certificate and reports its URLs", async () => {
    const { selfSignedCertificate } = await import("../../src/simulator/index.js");
    const tls = await selfSignedCertificate();
    c = await openSim({ ...V1, tls });
    expect(c.sim.ca).toBe(tls.cert);
    expect(c.sim.url).toBe(`https://127.0.0.1:${c.sim.port}`);
    expect(c.sim.apiUrl).toBe(`${c.sim.url}/api`);
    expect((await c.call("GET", "/api/api_version")).status).toBe(200);
  });
});
