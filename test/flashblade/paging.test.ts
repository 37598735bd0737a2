import { describe, expect, it } from "vitest";
import { fileSystemSchema } from "../../src/flashblade/schemas.js";
import { dialect } from "../../src/rest-spec/dialect.js";
import { SIM_VERSION, wirePath } from "../helpers/wire.js";
import { poolOf, seen, simConfig, startSim } from "./sim.js";

const N = 5000;
// The wire this run speaks: 1.x pages by `token`/`start`, 2.x by `continuation_token`/`offset` (same behaviour).
const path = wirePath("GET", "/api/1.12/file-systems");
const { token, offset } = dialect(SIM_VERSION).paging;

describe("paging", () => {
  it("walks thousands of items by continuation token, fetching one page at a time", async () => {
    const sim = await startSim({ scenario: { scale: { fileSystems: N } } });
    const c = poolOf([simConfig(sim)]).list()[0]!;
    const requests = () => sim.control.stats().requests[`GET ${path}`] ?? 0;

    const names = new Set<string>();
    let consumed = 0;
    for await (const fs of c.iterate("/file-systems", { schema: fileSystemSchema, pageSize: 700 })) {
      names.add(fs.name);
      consumed++;
      // Lazy: the page holding item k is fetched only when item k is wanted, so at most one page is held.
      expect(requests()).toBe(Math.ceil(consumed / 700));
    }
    expect(consumed).toBe(N);
    expect(names.size).toBe(N);
    const queries = seen(sim, "GET", path);
    expect(queries).toHaveLength(Math.ceil(N / 700));
    expect(queries[0]?.get("limit")).toBe("700");
    expect(queries[0]?.has(token)).toBe(false);
    for (const q of queries.slice(1)) {
      expect(q.get(token)).toBeTruthy();
      expect(q.has(offset)).toBe(false);
    }
  });

  it("pages a sorted listing by start (arrays give no token with sort) and counts without listing", async () => {
    const sim = await startSim({ scenario: { scale: { fileSystems: N } } });
    const c = poolOf([simConfig(sim)]).list()[0]!;
    let previous = "";
    let n = 0;
    for await (const fs of c.iterate("/file-systems", {
      query: { sort: "name" },
      schema: fileSystemSchema,
      pageSize: 1000,
    })) {
      expect(fs.name > previous).toBe(true);
      previous = fs.name;
      n++;
    }
    expect(n).toBe(N);
    const starts = seen(sim, "GET", path).map((q) => q.get(offset));
    expect(starts).toEqual([null, "1000", "2000", "3000", "4000"]);

    sim.control.resetStats();
    expect(await c.count("/file-systems")).toBe(N);
    const counted = seen(sim, "GET", path);
    expect(counted).toHaveLength(1);
    // 1.12 dropped total_only from file systems (one item and its total_item_count); 2.x has it again.
    if (SIM_VERSION.startsWith("2.")) expect(counted[0]?.get("total_only")).toBe("true");
    else expect(counted[0]?.get("limit")).toBe("1");
  });

  it("a single page reports the total item count and the continuation token", async () => {
    const sim = await startSim({ scenario: { scale: { fileSystems: 30 } } });
    const c = poolOf([simConfig(sim)]).list()[0]!;
    const page = await c.get("/file-systems", { query: { limit: 10 } });
    expect(page.items).toHaveLength(10);
    expect(page.totalItemCount).toBe(30);
    expect(typeof page.continuationToken).toBe("string");
  });
});
