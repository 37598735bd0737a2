/**
 * The client on both REST generations, over real HTTPS against the simulator: the per-array `api` setting picks
 * the generation once per connection, and on 2.x the client pages with continuation_token and offset, counts
 * with total_item_count, sends renamed parameters and a create's name in 2.x's words, and reads the 2.x error.
 */
import { describe, expect, it } from "vitest";
import { parseArraysConfig } from "../../src/config/arrays.js";
import { BotError } from "../../src/errors.js";
import { errorEntries, toPage } from "../../src/flashblade/response.js";
import { fileSystemSchema, snapshotSchema } from "../../src/flashblade/schemas.js";
import { snapshotCreate } from "../../src/flashblade/wire.js";
import { poolOf, seen, simConfig, startSim } from "./sim.js";

const BOTH = "1.0-1.12,2.0-2.28";

describe("choosing the generation", () => {
  it.each([
    [BOTH, undefined, "2.28"],
    [BOTH, "1", "1.12"],
    [BOTH, "2", "2.28"],
    [BOTH, "2.17", "2.17"],
    ["1.0-1.12", undefined, "1.12"],
    ["2.0-2.24", undefined, "2.24"],
    ["1.0-1.12,2.0-2.24", "auto", "2.24"],
  ])("an array serving %s with api %s speaks %s", async (versions, api, expected) => {
    const sim = await startSim({ versions });
    const c = poolOf([simConfig(sim, api === undefined ? {} : { api })]).list()[0]!;
    expect(await c.version()).toBe(expected);
    expect(c.health().version).toBe(expected);
  });

  it("api: 2 on a 1.x-only array says which generation is missing", async () => {
    const sim = await startSim({ versions: "1.0-1.12" });
    const c = poolOf([simConfig(sim, { api: "2" })]).list()[0]!;
    const err = await c.version().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BotError);
    expect((err as BotError).code).toBe("ARRAY_VERSION_UNSUPPORTED");
    expect((err as BotError).message).toContain("no REST 2.x version");
  });

  it("the setting takes auto, 1, 2 or a quoted version, and refuses a YAML number that lost its zero", () => {
    const base = { name: "fb", address: "https://fb", api_token_env: "T" };
    expect(parseArraysConfig([base])[0]?.api).toBe("auto");
    expect(parseArraysConfig([{ ...base, api: 2 }])[0]?.api).toBe("2");
    expect(parseArraysConfig([{ ...base, api: "2.17" }])[0]?.api).toBe("2.17");
    expect(() => parseArraysConfig([{ ...base, api: 1.1 }])).toThrow(/quote the version/);
    expect(() => parseArraysConfig([{ ...base, api: "3" }])).toThrow(/must be auto, 1, 2/);
    expect(() => parseArraysConfig([{ ...base, api: "2", api_version: "1.12" }])).toThrow(/only one of api/);
  });
});

describe("a 2.x array", () => {
  it("pages, counts, renames and creates in 2.x's words", async () => {
    const sim = await startSim({ versions: "2.0-2.28" });
    const c = poolOf([simConfig(sim)]).list()[0]!;
    const base = "/api/2.28";
    for (const n of [1, 2, 3, 4, 5]) {
      await c.send(
        await c.fileSystems.planCreate({ name: `fs${n}`, provisioned: 1024 * n }),
        fileSystemSchema,
      );
    }
    expect(seen(sim, "POST", `${base}/file-systems`)[0]?.get("names")).toBe("fs1");
    const names: string[] = [];
    for await (const fs of c.iterate<{ name: string }>("/file-systems", { pageSize: 2 })) names.push(fs.name);
    expect(names.sort()).toEqual(["fs1", "fs2", "fs3", "fs4", "fs5"]);
    const pages = seen(sim, "GET", `${base}/file-systems`);
    expect(pages.some((q) => q.has("continuation_token"))).toBe(true);
    expect(pages.some((q) => q.has("token"))).toBe(false);
    expect(await c.count("/file-systems")).toBe(5);
    const sorted = await c.get<{ name: string }>("/file-systems", {
      query: { sort: "name", start: 3, limit: 1 },
    });
    expect(sorted.items.map((i) => i.name)).toEqual(["fs4"]);
    expect(seen(sim, "GET", `${base}/file-systems`).at(-1)?.get("offset")).toBe("3");
    expect(sorted.totalItemCount).toBe(5);
    const filtered = await c.get<{ name: string }>("/file-systems", { query: { filter: "name='fs2'" } });
    expect(filtered.items.map((i) => i.name)).toEqual(["fs2"]);
    expect(seen(sim, "GET", `${base}/file-systems`).at(-1)?.get("filter")).toBe("name='fs2'");
    const [updated] = await c.send(
      await c.fileSystems.planUpdate("fs1", { provisioned: 4096 }),
      fileSystemSchema,
    );
    expect(updated?.provisioned).toBe(4096);
    expect([...(seen(sim, "PATCH", `${base}/file-systems`)[0]?.keys() ?? [])]).toEqual(["names"]);
    await c.post("/file-system-snapshots", { ...snapshotCreate(["fs1"], "s1"), schema: snapshotSchema });
    expect(seen(sim, "POST", `${base}/file-system-snapshots`)[0]?.get("source_names")).toBe("fs1");
    await c.patch("/smtp", { body: { relay_host: "smtp.example.com" } });
    expect(seen(sim, "PATCH", `${base}/smtp-servers`)).toHaveLength(1);
  });

  it("a 207 partial answer keeps its items and its errors; a 1.x page is read from pagination_info", () => {
    const partial = JSON.stringify({
      items: [{ name: "fs1" }],
      errors: [{ context: "fb-remote", message: "not reachable" }],
      total_item_count: 2,
    });
    const page = toPage("fb", "/file-systems", partial, undefined, "2.22");
    expect(page.items).toEqual([{ name: "fs1" }]);
    expect(page.errors).toEqual([
      expect.objectContaining({ context: "fb-remote", message: "not reachable" }),
    ]);
    expect(page.totalItemCount).toBe(2);
    const old = JSON.stringify({
      items: [],
      pagination_info: { continuation_token: "t", total_item_count: 9 },
    });
    expect(toPage("fb", "/file-systems", old, undefined, "1.12")).toMatchObject({
      continuationToken: "t",
      totalItemCount: 9,
    });
  });

  it("a refusal reads the 2.x error body, the top-level message of a 403 too", () => {
    expect(errorEntries(JSON.stringify({ message: "Session expired." }))[0]?.message).toBe(
      "Session expired.",
    );
    expect(
      errorEntries(JSON.stringify({ errors: [{ context: "fs1", message: "no such" }] }))[0],
    ).toMatchObject({
      context: "fs1",
      message: "no such",
    });
  });
});
