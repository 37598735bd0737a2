import { describe, expect, it } from "vitest";
import { BotError } from "../../src/errors.js";
import { and, eq, like, not } from "../../src/flashblade/filter.js";
import type { FileSystem } from "../../src/flashblade/types.js";
import type { HttpMethod } from "../../src/rest-spec/endpoints.js";
import { listItems } from "../../src/simulator/query/index.js";
import { findHandler } from "../../src/simulator/resources/index.js";
import type { SimState } from "../../src/simulator/state.js";
import type { SimHandler } from "../../src/simulator/types.js";
import { wirePath } from "../helpers/wire.js";
import { poolOf, seen, simConfig, startSim } from "./sim.js";

/** Names no real array would accept, served by the simulator's own front end and listing engine. */
const HOSTILE = [
  "it's",
  'say "hi"',
  "x') or (name='y",
  "a and b",
  "paren)",
  "(open",
  "back\\slash",
  "trailing\\",
  "not(x)",
  "y",
  "star*name",
];
const items = HOSTILE.map((name, i) => ({ name, id: `id-${i}`, provisioned: i * 10 }));

/** The real handlers, except GET /file-systems, which lists the hostile items through the real engine. */
function handlers(method: HttpMethod, path: string): SimHandler<SimState> | undefined {
  if (method === "GET" && path === "/file-systems") {
    return (req) => ({ envelope: listItems(items, req, { totals: "none", noun: "File system" }) });
  }
  return findHandler(method, path);
}

describe("filters round-trip through the simulator", () => {
  it("a hostile name selects exactly its own item", async () => {
    const sim = await startSim({ handlers });
    const c = poolOf([simConfig(sim)]).list()[0]!;
    for (const name of HOSTILE.filter((n) => !n.includes("*"))) {
      const page = await c.get<FileSystem>("/file-systems", { query: { filter: eq("name", name) } });
      expect(
        page.items.map((i) => i.name),
        name,
      ).toEqual([name]);
      expect((await c.fileSystems.get(name))?.name).toBe(name);
      const others = await c.get<FileSystem>("/file-systems", { query: { filter: not(eq("name", name)) } });
      expect(others.items).toHaveLength(HOSTILE.length - 1);
    }
    // The query string carried the quoted, escaped value (spaces as "+", decoded by the array).
    const filters = seen(sim, "GET", wirePath("GET", "/api/1.12/file-systems")).map((q) => q.get("filter"));
    expect(filters).toContain("name='x\\') or (name=\\'y'");
    expect(filters).toContain("not(name='a and b')");
  });

  it("a name with * cannot be matched exactly by a filter: user-facing error, nothing sent", async () => {
    const sim = await startSim({ handlers });
    const c = poolOf([simConfig(sim)]).list()[0]!;
    await c.version();
    const before = sim.control.stats().total;
    const err = await c.fileSystems.get("star*name").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BotError);
    expect((err as BotError).code).toBe("FILTER_INVALID");
    expect(sim.control.stats().total).toBe(before);
    // Selecting by name (not by filter) is exact.
    const byName = await c.get<FileSystem>("/file-systems", { query: { names: ["star*name"] } });
    expect(byName.items.map((i) => i.name)).toEqual(["star*name"]);
    // like() keeps the wildcard on purpose and escapes the rest.
    const wild = await c.get<FileSystem>("/file-systems", { query: { filter: like("name", "x') or (*") } });
    expect(wild.items.map((i) => i.name)).toEqual(["x') or (name='y"]);
  });

  it("injection attempts against the real state match nothing", async () => {
    const sim = await startSim();
    const c = poolOf([simConfig(sim)]).list()[0]!;
    await c.send(await c.fileSystems.planCreate({ name: "fs-a" }));
    await c.send(await c.fileSystems.planCreate({ name: "fs-b" }));
    for (const attempt of ["' or name!='", "fs-a' or name='fs-b", "x\\' or provisioned>=0 or name=\\'"]) {
      const page = await c.get<FileSystem>("/file-systems", {
        query: { filter: and(eq("name", attempt), eq("destroyed", false)) },
      });
      expect(page.items, attempt).toEqual([]);
    }
    expect((await c.fileSystems.get("fs-a"))?.name).toBe("fs-a");
    expect(await c.fileSystems.get("FS-A")).toBeUndefined();
  });
});
