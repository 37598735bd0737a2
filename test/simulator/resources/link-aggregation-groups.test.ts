import { describe, expect, it } from "vitest";
import { call, expect400, items, list, sim } from "./helpers.js";

const PORTS = { ports: [{ name: "CH1.FM1.ETH2" }, { name: "CH1.FM2.ETH2" }] };

describe("POST /link-aggregation-groups", () => {
  it("before 1.12 takes the name from the body, refuses 'names', and picks one when none is given", () => {
    const { state } = sim();
    expect400(
      state,
      "POST",
      "/link-aggregation-groups",
      { version: "1.11", query: "names=backup", body: PORTS },
      /'names' is not accepted by POST \/link-aggregation-groups before REST 1\.12; give the group's name in the body/,
    );
    const [named] = items(
      call(state, "POST", "/link-aggregation-groups", {
        version: "1.11",
        body: { name: "backup", ...PORTS },
      }),
    );
    expect(named).toMatchObject({
      name: "backup",
      id: expect.any(String),
      status: "healthy",
      port_speed: 40_000_000_000,
      lag_speed: 80_000_000_000,
      ports: [{ name: "CH1.FM1.ETH2" }, { name: "CH1.FM2.ETH2" }],
    });
    expect(named?.["mac_address"]).toMatch(/^02(:[0-9a-f]{2}){5}$/);
    const [generated] = items(
      call(state, "POST", "/link-aggregation-groups", {
        version: "1.11",
        body: { ports: [{ name: "CH1.FM1.ETH3" }] },
      }),
    );
    expect(generated?.["name"]).toBe("lag1");
    expect(
      list(state, "/link-aggregation-groups", "", "1.11")
        .items.map((g) => g["name"])
        .sort(),
    ).toEqual(["backup", "lag1", "legacy-lag", "uplink"]);
  });

  it("hides the id before 1.8, as the model has none there", () => {
    const { state } = sim();
    const [group] = items(
      call(state, "POST", "/link-aggregation-groups", { version: "1.3", body: { name: "old", ...PORTS } }),
    );
    expect(group).toMatchObject({ name: "old" });
    expect(group).not.toHaveProperty("id");
  });

  it("from 1.12 accepts 'names', one name at a time, not together with the body's name", () => {
    const { state } = sim();
    const [group] = items(
      call(state, "POST", "/link-aggregation-groups", {
        version: "1.12",
        query: "names=backup",
        body: PORTS,
      }),
    );
    expect(group).toMatchObject({ name: "backup", lag_speed: 80_000_000_000 });
    expect(list(state, "/link-aggregation-groups", "names=backup").items).toHaveLength(1);
    const other = { ports: [{ name: "CH1.FM1.ETH3" }] };
    expect400(
      state,
      "POST",
      "/link-aggregation-groups",
      { query: "names=a,b", body: other },
      /exactly one name in 'names'/,
    );
    expect400(
      state,
      "POST",
      "/link-aggregation-groups",
      { query: "names=a", body: { name: "b", ...other } },
      /'names' and the body's 'name' cannot be used together/,
    );
    expect400(
      state,
      "POST",
      "/link-aggregation-groups",
      { query: "names=backup", body: other },
      /'backup' already exists/,
    );
  });

  it("refuses ports that are unknown, repeated or in another group, and read-only fields, changing nothing", () => {
    const { state } = sim();
    const before = list(state, "/link-aggregation-groups").items;
    const cases: [unknown, RegExp][] = [
      [{ ports: [{ name: "CH9.FM1.ETH1" }] }, /Port 'CH9\.FM1\.ETH1' does not exist/],
      [
        { ports: [{ name: "CH1.FM1.ETH2" }, { name: "CH1.FM1.ETH2" }] },
        /Port 'CH1\.FM1\.ETH2' is listed twice/,
      ],
      [
        { ports: [{ name: "CH1.FM1.ETH1" }] },
        /Port 'CH1\.FM1\.ETH1' already belongs to link aggregation group 'uplink'/,
      ],
      [{ ports: [] }, /'ports' in LinkAggregationGroup: must be at least 1/],
      [{}, /'ports' is required in LinkAggregationGroup/],
      [{ status: "healthy", ...PORTS }, /'status' is read-only in LinkAggregationGroup/],
    ];
    for (const [body, message] of cases) {
      expect400(state, "POST", "/link-aggregation-groups", { query: "names=x", body }, message);
    }
    expect(list(state, "/link-aggregation-groups").items).toEqual(before);
  });
});
