import { describe, expect, it } from "vitest";
import { createState } from "../../../src/simulator/state.js";
import { list, sim, T0 } from "./helpers.js";

describe("scenarios", () => {
  it("demo: a believable array with the troubles admins ask about", () => {
    const { state } = sim("demo");
    const fs = list(state, "/file-systems").items;
    expect(fs.length).toBeGreaterThanOrEqual(12);
    const protocols = new Set(
      fs
        .flatMap((f) => [
          f["nfs"].v3_enabled && "nfs3",
          f["nfs"].v4_1_enabled && "nfs4",
          f["smb"].enabled && "smb",
          f["http"].enabled && "http",
        ])
        .filter(Boolean),
    );
    expect(protocols).toEqual(new Set(["nfs3", "nfs4", "smb", "http"]));
    const ratio = (f: (typeof fs)[number]) =>
      f["provisioned"] > 0 ? f["space"].virtual / f["provisioned"] : 0;
    expect(fs.filter((f) => ratio(f) > 1).length).toBeGreaterThanOrEqual(1);
    expect(fs.filter((f) => ratio(f) > 0.9 && ratio(f) <= 1).length).toBeGreaterThanOrEqual(2);
    expect(fs.filter((f) => f["hard_limit_enabled"] && ratio(f) > 0.95).map((f) => f["name"])).toEqual([
      "builds",
    ]);
    expect(fs.filter((f) => f["destroyed"]).map((f) => f["name"])).toEqual(["old-share"]);
    expect(list(state, "/file-system-snapshots", "filter=policy.name='daily'").items.length).toBeGreaterThan(
      10,
    );
    expect(list(state, "/quotas/groups").items.some((g) => g["usage"] / g["quota"] > 0.9)).toBe(true);
    expect(list(state, "/object-store-access-keys").items.length).toBeGreaterThanOrEqual(3);
    expect(list(state, "/object-store-users").items.length).toBeGreaterThanOrEqual(3);
    expect(new Set(list(state, "/bucket-replica-links").items.map((l) => l["status"]))).toEqual(
      new Set(["replicating", "paused", "unhealthy"]),
    );
    expect(list(state, "/alert-watchers").items.length).toBeGreaterThanOrEqual(2);
    expect(list(state, "/arrays").items[0]?.["name"]).toBe("fb-test");
    const space = list(state, "/arrays/space").items[0];
    expect(space?.["space"].total_physical).toBeLessThan(space?.["capacity"]);
  });

  it("demo: the same seed gives the same ids", () => {
    const a = list(sim("demo", 11).state, "/file-systems", "names=home").items[0]?.["id"];
    const b = list(sim("demo", 11).state, "/file-systems", "names=home").items[0]?.["id"];
    const c = list(sim("demo", 12).state, "/file-systems", "names=home").items[0]?.["id"];
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });

  it("empty: hardware and settings, no data", () => {
    const { state } = sim("empty");
    for (const path of ["/file-systems", "/buckets", "/alerts", "/bucket-replica-links", "/policies"]) {
      expect(list(state, path).items).toEqual([]);
    }
    expect(list(state, "/hardware").items.length).toBeGreaterThan(0);
    expect(list(state, "/dns").items).toHaveLength(1);
  });

  it("scale: generates 100,000 file systems with unique names and ids, listable by page", () => {
    const state = createState({
      scenario: { scale: { fileSystems: 100_000 } },
      clock: () => T0,
      arrayName: "fb-big",
      seed: 3,
    });
    expect(state.fileSystems.size).toBe(100_000);
    expect(new Set([...state.fileSystems.values()].map((f) => f.id)).size).toBe(100_000);
    const page = list(state, "/file-systems", "limit=1000");
    expect(page.pagination_info.total_item_count).toBe(100_000);
    expect(page.items).toHaveLength(1000);
    expect(page.items[0]?.["name"]).toBe("fs-000001");
    expect(page.items[0]?.["provisioned"]).toBeGreaterThan(0);
    expect(list(state, "/file-systems", "names=fs-100000").items[0]?.["space"].virtual).toBeLessThanOrEqual(
      51 * 100 * 1024 ** 3,
    );
    const next = list(state, "/file-systems", `token=${page.pagination_info.continuation_token}`);
    expect(next.items[0]?.["name"]).toBe("fs-001001");
    expect(() =>
      createState({ scenario: { scale: { fileSystems: -1 } }, clock: () => T0, arrayName: "x" }),
    ).toThrow(RangeError);
  });
});
