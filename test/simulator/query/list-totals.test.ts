import { describe, expect, it } from "vitest";
import { type ListOptions, listItems, sumItems } from "../../../src/simulator/query/index.js";
import { httpError, request } from "./request.js";

const items = [
  {
    name: "fs1",
    id: "a",
    provisioned: 100,
    created: 1_700_000_000_000,
    destroyed: false,
    space: { virtual: 10, unique: 1, snapshots: 2 },
    nfs: { enabled: true },
    policy: { name: "p", id: "x", resource_type: "policies" },
    tags: [1, 2],
  },
  {
    name: "fs2",
    id: "b",
    provisioned: 50,
    created: 1_700_000_000_001,
    destroyed: true,
    space: { virtual: 5, unique: 2, snapshots: null },
  },
  { name: "fs3", id: "c", provisioned: 25, space: { virtual: 1, unique: 0 } },
];

describe("totals", () => {
  it("sums numeric fields recursively and drops the rest", () => {
    expect(sumItems(items)).toEqual({ provisioned: 175, space: { virtual: 16, unique: 3, snapshots: 2 } });
  });

  it("sums only the returned page with total=true", () => {
    const result = listItems(items, request("total=true&limit=2"), { totals: "object" });
    expect(result.total).toEqual({ provisioned: 150, space: { virtual: 15, unique: 3, snapshots: 2 } });
    expect(result.items).toHaveLength(2);
    expect(Object.keys(result)).toEqual(["pagination_info", "total", "items"]);
  });

  it("sums every filtered item with total_only=true and returns no items", () => {
    const result = listItems(items, request("total_only=true&filter=provisioned%3C100&limit=1"), {
      totals: "object",
    });
    expect(result).toEqual({
      pagination_info: { continuation_token: null, total_item_count: 2 },
      total: { provisioned: 75, space: { virtual: 6, unique: 2 } },
      items: [],
    });
  });

  it("wraps the total in a one-element list when the endpoint's shape is a list", () => {
    const result = listItems(items, request("total=true"), { totals: "list" });
    expect(result.total).toEqual([{ provisioned: 175, space: { virtual: 16, unique: 3, snapshots: 2 } }]);
  });

  it("omits total when not asked for, and sums nothing to an empty object", () => {
    expect(listItems(items, request("total=false"), { totals: "object" })).not.toHaveProperty("total");
    expect(listItems(items, request("total=true&limit=0"), { totals: "object" }).total).toEqual({});
  });

  it("honours a custom skip list", () => {
    expect(sumItems(items, ["space"])).toEqual({ provisioned: 175, created: 3_400_000_000_001 });
  });

  it("ignores a __proto__ key arriving from JSON", () => {
    const hostile = JSON.parse('{"__proto__": {"polluted": 1}, "n": 1}') as object;
    const total = sumItems([hostile]);
    expect(total).toEqual({ n: 1 });
    expect(Object.getPrototypeOf(total)).toBe(Object.prototype);
  });

  it.each(["total=true", "total_only=true", "total=false"])(
    "%s is a 400 where the endpoint has no totals at this version",
    (search) => {
      const opts: ListOptions = { totals: "none" };
      const param = search.split("=")[0];
      const err = httpError(() => listItems(items, request(search, "/file-systems", "1.12"), opts));
      expect([err.status, err.message, err.context]).toEqual([
        400,
        `The ${param} parameter is not supported by this endpoint at version 1.12.`,
        param,
      ]);
    },
  );

  it("rejects a malformed total value", () => {
    expect(httpError(() => listItems(items, request("total=maybe"), { totals: "object" })).context).toBe(
      "total",
    );
  });
});
