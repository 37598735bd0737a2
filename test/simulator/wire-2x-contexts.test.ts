/**
 * What REST 2.x list requests carry that 1.x has no word for, served from the tables for every operation:
 * `context_names` (2.17+: the array's own name is the local array, any other a 400, or a 207 beside the items
 * with `allow_errors`), the `context` reference on items whose 2.x model has one, and `total_only` wherever the
 * 2.x table lists it (1.12 dropped it from file systems and snapshots; 2.x has it again).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialect } from "../../src/rest-spec/dialect.js";
import { MODELS_2X } from "../../src/rest-spec/models-2x.js";
import { OPERATIONS } from "../../src/rest-spec/operations.js";
import { openSim, type SimClient } from "./server-helpers.js";

const V = "2.28";
const d = dialect(V);
/** GET operations the simulator's handlers serve (those 1.x has), with `param` at 2.28, from the table. */
const listsWith = (param: string) =>
  OPERATIONS.filter(
    (o) => o.method === "GET" && o.versioned && o.v1 !== undefined && d.serves(o) && param in d.params(o),
  ).filter((o) => !o.path.includes("{"));

type Listing = {
  items: Record<string, unknown>[];
  errors?: { context: string; message: string }[];
  total?: unknown;
  total_item_count?: number;
};

let c: SimClient;
let headers: Record<string, string>;
beforeAll(async () => {
  c = await openSim({ versions: "1.0-1.12,2.0-2.28", arrayName: "fb-a", scenario: "demo" });
  headers = { "x-auth-token": await c.login() };
});
afterAll(() => c.close());

const get = async (path: string) => {
  const r = await c.call("GET", `/api/${V}${path}`, { headers });
  return { status: r.status, body: r.json() as Listing };
};

describe("context_names", () => {
  it("covers the 2.x lists the table gives it", () => {
    expect(listsWith("context_names").length).toBeGreaterThan(20);
  });

  it.each(listsWith("context_names").map((o) => [o.path]))(
    "%s refuses a context that is not this array",
    async (path) => {
      const r = await get(`${path}?context_names=fb-elsewhere`);
      expect(r.status).toBe(400);
      expect(r.body.errors?.[0]?.context).toBe("fb-elsewhere");
      expect(r.body.errors?.[0]?.message).toContain("fb-elsewhere");
    },
  );

  it("takes the array's own name as the local array, and answers each item's context where the model has one", async () => {
    const own = await get("/file-systems?context_names=fb-a");
    const plain = await get("/file-systems");
    expect(own.status).toBe(200);
    expect(own.body.items.map((i) => i["name"])).toEqual(plain.body.items.map((i) => i["name"]));
    expect(MODELS_2X["FileSystem"]?.["context"]).toBeDefined();
    for (const i of own.body.items) expect(i["context"]).toEqual({ name: "fb-a", id: expect.any(String) });
    // Before 2.17 the model has no context, and the answer none.
    const old = await c.call("GET", "/api/2.16/file-systems", { headers });
    for (const i of (old.json() as Listing).items) expect(i).not.toHaveProperty("context");
    // 1.x never.
    const v1 = await c.call("GET", "/api/1.12/file-systems", { headers });
    for (const i of (v1.json() as Listing).items) expect(i).not.toHaveProperty("context");
  });

  it("with allow_errors answers 207: the local items, and an error per unknown context", async () => {
    const r = await get("/file-systems?context_names=fb-a,fb-x&allow_errors=true");
    expect(r.status).toBe(207);
    expect(r.body.items.length).toBeGreaterThan(0);
    expect(r.body.errors).toEqual([{ context: "fb-x", message: expect.stringContaining("fb-x") }]);
  });
});

describe("total_only on 2.x", () => {
  const lists = listsWith("total_only");

  it("is served on the lists 1.12 took it from", () => {
    const paths = lists.map((o) => o.path);
    expect(paths).toContain("/file-systems");
    expect(paths).toContain("/file-system-snapshots");
  });

  it.each(lists.map((o) => [o.path, o.v2?.response ?? ""]))(
    "%s answers the total alone",
    async (path, response) => {
      const r = await get(`${path}?total_only=true`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.items).toEqual([]);
      expect(r.body.total_item_count).toEqual(expect.any(Number));
      const list = MODELS_2X[response]?.["total"]?.type.startsWith("array<") ?? false;
      expect(Array.isArray(r.body.total), `${response}.total`).toBe(list);
    },
  );

  it("counts every item the filter selects, whatever the page size", async () => {
    const all = await get("/file-systems");
    const r = await get("/file-systems?total_only=true&limit=1");
    expect(r.body.total_item_count).toBe(all.body.items.length);
    const provisioned = all.body.items.reduce((n, i) => n + Number(i["provisioned"] ?? 0), 0);
    expect((r.body.total as Record<string, number>)["provisioned"]).toBe(provisioned);
  });
});
