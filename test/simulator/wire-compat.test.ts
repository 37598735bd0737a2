/**
 * The §12 simulator checklist of the wire fact sheet, item by item, with requests shaped exactly as purity_fb
 * 1.12.3 sends them (headers, encodings, call order), over real HTTPS.
 */
import { afterEach, describe, expect, it } from "vitest";
import { compareVersions } from "../../src/rest-spec/versions.js";
import type { SimulatorOptions } from "../../src/simulator/index.js";
import { manualClock, openSim, type Reply, type SimClient } from "./server-helpers.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SDK_HEADERS = {
  accept: "application/json",
  "content-type": "application/json",
  "user-agent": "Purity_FB_Python_Client/1.12",
};

let c: SimClient | undefined;
afterEach(async () => {
  await c?.close();
  c = undefined;
});

/** A purity_fb-shaped client: JSON headers on every call (GET and DELETE included), the token once logged in. */
async function sdk(opts: SimulatorOptions = {}) {
  // purity_fb speaks REST 1.x only, and this file checks the simulator against its 1.x wire: pinned to 1.x.
  c = await openSim({ scenario: "empty", versions: "1.0-1.12", ...opts });
  const client = c;
  let token: string | undefined;
  const call = (method: string, pathAndQuery: string, body?: unknown): Promise<Reply> =>
    client.call(method, pathAndQuery, {
      headers: { ...SDK_HEADERS, ...(token === undefined ? {} : { "x-auth-token": token }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return {
    client,
    call,
    async login(): Promise<Reply> {
      // purity_fb logs out (without a token) before every login, then logs in with the header.
      await call("POST", "/api/logout");
      const r = await client.call("POST", "/api/login", {
        headers: { ...SDK_HEADERS, "api-token": "T-demo" },
      });
      token = r.headers["x-auth-token"] as string | undefined;
      return r;
    },
    get token() {
      return token;
    },
    async json(method: string, pathAndQuery: string, body?: unknown): Promise<Record<string, unknown>> {
      const r = await call(method, pathAndQuery, body);
      if (r.status !== 200) throw new Error(`${method} ${pathAndQuery} answered ${r.status}: ${r.text}`);
      return r.json() as Record<string, unknown>;
    },
  };
}

type Sdk = Awaited<ReturnType<typeof sdk>>;
const names = (body: Record<string, unknown>) => (body.items as { name: string }[]).map((i) => i.name);

async function createFileSystems(s: Sdk, specs: { name: string; provisioned: number }[]): Promise<void> {
  for (const spec of specs) await s.json("POST", "/api/1.12/file-systems", spec);
}

describe("§12.1 api_version", () => {
  it("is public and lists the versions in ascending order, 1.8.1 included", async () => {
    const s = await sdk();
    const r = await s.client.call("GET", "/api/api_version", {
      headers: { "user-agent": "Purity_FB_Python_Client" },
    });
    expect(r.status).toBe(200);
    const versions = (r.json() as { versions: string[] }).versions;
    expect(versions).toContain("1.8.1");
    expect(versions.at(-1)).toBe("1.12");
    expect([...versions].sort(compareVersions)).toEqual(versions);
  });
});

describe("§12.2 login", () => {
  it("reads the api-token header and answers 200, a UUID x-auth-token and a non-null username", async () => {
    const s = await sdk();
    const r = await s.login();
    expect(r.status).toBe(200);
    expect(s.token).toMatch(UUID);
    expect(r.json()).toEqual({ username: expect.any(String) });
  });

  it("answers a bad token with a non-200 and no token header", async () => {
    const s = await sdk();
    const r = await s.client.call("POST", "/api/login", {
      headers: { ...SDK_HEADERS, "api-token": "T-bad" },
    });
    expect(r.status).not.toBe(200);
    expect(r.headers["x-auth-token"]).toBeUndefined();
  });
});

describe("§12.3 logout before login", () => {
  it("accepts purity_fb's start-up sequence, then refuses the stale token it keeps sending after logout", async () => {
    const s = await sdk();
    expect((await s.call("GET", "/api/api_version")).status).toBe(200);
    const stray = await s.call("POST", "/api/logout");
    expect(stray.status).toBe(200);
    expect((await s.login()).status).toBe(200);
    expect((await s.call("GET", "/api/1.12/arrays")).status).toBe(200);
    expect((await s.call("POST", "/api/logout")).status).toBe(200);
    expect((await s.call("GET", "/api/1.12/arrays")).status).toBe(403);
    const order = s.client.sim.control.stats().recent.map((e) => `${e.method} ${e.path}`);
    expect(order.slice(0, 4)).toEqual([
      "GET /api/api_version",
      "POST /api/logout",
      "POST /api/logout",
      "POST /api/login",
    ]);
  });
});

describe("§12.4 sessions", () => {
  it("answers 403 for a missing token and for a session idle for more than 30 minutes", async () => {
    const clock = manualClock();
    const s = await sdk({ clock: clock.now });
    expect((await s.call("GET", "/api/1.12/arrays")).status).toBe(403);
    await s.login();
    clock.advance(30 * 60_000 + 1);
    const r = await s.call("GET", "/api/1.12/arrays");
    expect(r.status).toBe(403);
    expect(r.json()).toEqual({ errors: [{ context: expect.any(String), message: expect.any(String) }] });
  });
});

describe("§12.5 errors", () => {
  it("answers a missing object with 400 and the errors body", async () => {
    const s = await sdk();
    await s.login();
    const r = await s.call("GET", "/api/1.12/file-systems?names=nope");
    expect(r.status).toBe(400);
    expect(r.headers["content-type"]).toBe("application/json");
    expect(r.json()).toEqual({ errors: [{ context: expect.any(String), message: expect.any(String) }] });
  });

  it("refuses to eradicate a live file system with 400, changing nothing", async () => {
    const s = await sdk();
    await s.login();
    await createFileSystems(s, [{ name: "live", provisioned: 1024 }]);
    expect((await s.call("DELETE", "/api/1.12/file-systems?name=live")).status).toBe(400);
    expect(names(await s.json("GET", "/api/1.12/file-systems?names=live"))).toEqual(["live"]);
  });
});

describe("§12.6 query strings as purity_fb encodes them", () => {
  async function seeded(): Promise<Sdk> {
    const s = await sdk();
    await s.login();
    await createFileSystems(s, [
      { name: "fs1", provisioned: 1024 },
      { name: "fs 2", provisioned: 4096 },
      { name: "fsx", provisioned: 2048 },
      { name: "other", provisioned: 512 },
    ]);
    return s;
  }

  it("decodes %2C and + in names", async () => {
    const s = await seeded();
    expect(names(await s.json("GET", "/api/1.12/file-systems?names=fs1%2Cfs+2")).sort()).toEqual([
      "fs 2",
      "fs1",
    ]);
  });

  it("decodes the filter, with + as space and %27 quotes, and applies and / wildcards", async () => {
    const s = await seeded();
    expect((await s.call("PATCH", "/api/1.12/file-systems?name=fsx", { destroyed: true })).status).toBe(200);
    const live = await s.json(
      "GET",
      "/api/1.12/file-systems?filter=name%3D%27fs%2A%27+and+destroyed%3Dfalse",
    );
    expect(names(live).sort()).toEqual(["fs 2", "fs1"]);
  });

  it("supports comparisons, or, not(), contains() and bare dotted booleans", async () => {
    const s = await seeded();
    const q = (filter: string) =>
      s.json("GET", `/api/1.12/file-systems?filter=${encodeURIComponent(filter)}`);
    expect(names(await q("provisioned>=2048")).sort()).toEqual(["fs 2", "fsx"]);
    expect(names(await q("provisioned<1024 or name='fsx'")).sort()).toEqual(["fsx", "other"]);
    expect(names(await q("not(contains(name,'fs'))"))).toEqual(["other"]);
    await s.json("PATCH", "/api/1.12/file-systems?name=fs1", { http: { enabled: true } });
    expect(names(await q("http.enabled"))).toEqual(["fs1"]);
  });

  it("selects by singular name on PATCH and DELETE, and by ids", async () => {
    const s = await seeded();
    const fs1 = (await s.json("GET", "/api/1.12/file-systems?names=fs1")).items as { id: string }[];
    const id = fs1[0]?.id as string;
    expect(names(await s.json("GET", `/api/1.12/file-systems?ids=${id}`))).toEqual(["fs1"]);
    await s.json("PATCH", "/api/1.12/file-systems?name=other", { destroyed: true });
    const del = await s.call("DELETE", "/api/1.12/file-systems?name=other");
    expect(del.status).toBe(200);
    expect(del.text).toBe("");
    expect((await s.call("GET", "/api/1.12/file-systems?names=other")).status).toBe(400);
  });

  it("sorts with an appended minus for descending, on several keys", async () => {
    const s = await seeded();
    expect(names(await s.json("GET", "/api/1.12/file-systems?sort=provisioned-"))).toEqual([
      "fs 2",
      "fsx",
      "fs1",
      "other",
    ]);
    expect(names(await s.json("GET", "/api/1.12/file-systems?sort=name"))).toEqual([
      "fs 2",
      "fs1",
      "fsx",
      "other",
    ]);
  });

  it("pages with start, limit and continuation tokens", async () => {
    const s = await seeded();
    const first = await s.json("GET", "/api/1.12/file-systems?limit=3");
    const info = first.pagination_info as { continuation_token: string | null; total_item_count: number };
    expect(info.total_item_count).toBe(4);
    expect(info.continuation_token).toEqual(expect.any(String));
    const token = encodeURIComponent(info.continuation_token as string);
    const second = await s.json("GET", `/api/1.12/file-systems?token=${token}`);
    expect([...names(first), ...names(second)].sort()).toEqual(["fs 2", "fs1", "fsx", "other"]);
    expect((second.pagination_info as { continuation_token: unknown }).continuation_token).toBeNull();
    expect(names(await s.json("GET", "/api/1.12/file-systems?sort=name&start=1&limit=2"))).toEqual([
      "fs1",
      "fsx",
    ]);
  });

  it("answers total_only with a summed total and no items up to 1.11, and refuses it from 1.12", async () => {
    const s = await seeded();
    const body = await s.json("GET", "/api/1.11/file-systems?total_only=true");
    expect(body.items).toEqual([]);
    expect(body.total).toMatchObject({ provisioned: 1024 + 4096 + 2048 + 512 });
    expect((await s.call("GET", "/api/1.12/file-systems?total_only=true")).status).toBe(400);
  });
});

describe("§12.7 list envelope", () => {
  it("puts continuation_token and total_item_count inside pagination_info, and total where the model has it", async () => {
    const s = await sdk();
    await s.login();
    await createFileSystems(s, [{ name: "a", provisioned: 10 }]);
    const body = await s.json("GET", "/api/1.11/file-systems?total=true");
    expect(body).toEqual({
      pagination_info: { continuation_token: null, total_item_count: 1 },
      total: expect.objectContaining({ provisioned: 10 }),
      items: [expect.objectContaining({ name: "a" })],
    });
    const arrays = await s.json("GET", "/api/1.12/arrays");
    expect(arrays.pagination_info).toEqual(expect.objectContaining({ total_item_count: 1 }));
    expect(arrays.items).toHaveLength(1);
  });
});

describe("§12.8 values purity_fb validates", () => {
  it("never sends negative performance values or a subnet MTU outside 1280-9216", async () => {
    const s = await sdk({ scenario: "demo" });
    await s.login();
    for (const path of ["/arrays/performance", "/arrays/clients/performance", "/file-systems/performance"]) {
      const body = await s.json("GET", `/api/1.12${path}`);
      for (const item of body.items as Record<string, unknown>[]) {
        for (const [k, v] of Object.entries(item)) {
          if (typeof v === "number") expect(v, `${path} ${k}`).toBeGreaterThanOrEqual(0);
        }
      }
    }
    const subnets = await s.json("GET", "/api/1.12/subnets");
    for (const subnet of subnets.items as { mtu?: number }[]) {
      if (subnet.mtu !== undefined) {
        expect(subnet.mtu).toBeGreaterThanOrEqual(1280);
        expect(subnet.mtu).toBeLessThanOrEqual(9216);
      }
    }
  });
});

describe("§12.9 snapshots", () => {
  it("creates <fs>.<suffix> from ?sources= and a {suffix} body, found again by names_or_sources", async () => {
    const s = await sdk();
    await s.login();
    await createFileSystems(s, [{ name: "fs1", provisioned: 1024 }]);
    const created = await s.json("POST", "/api/1.12/file-system-snapshots?sources=fs1", { suffix: "s1" });
    expect(created.items).toEqual([expect.objectContaining({ name: "fs1.s1", source: "fs1", suffix: "s1" })]);
    const listed = await s.json("GET", "/api/1.12/file-system-snapshots?names_or_sources=fs1");
    expect(names(listed)).toEqual(["fs1.s1"]);
    const bySource = await s.json(
      "GET",
      `/api/1.12/file-system-snapshots?filter=${encodeURIComponent("source='fs1'")}`,
    );
    expect(names(bySource)).toEqual(["fs1.s1"]);
  });
});
