import { describe, expect, it } from "vitest";
import { call, expect400, items, list, sim } from "./helpers.js";

describe("subnets and network interfaces", () => {
  it("places an interface in the subnet whose prefix holds its address and inherits its settings", () => {
    const { state } = sim();
    // The demo's retired legacy-lag goes first, so the array has one link aggregation group to default to.
    call(state, "DELETE", "/link-aggregation-groups", { query: "names=legacy-lag" });
    const [subnet] = items(
      call(state, "POST", "/subnets", {
        query: "names=backup-net",
        body: { prefix: "10.9.0.0/22", gateway: "10.9.0.1", vlan: 90 },
      }),
    );
    // New subnets are enabled, 1500 MTU, on the array's only link aggregation group.
    expect(subnet).toMatchObject({
      enabled: true,
      mtu: 1500,
      interfaces: [],
      link_aggregation_group: { name: "uplink", resource_type: "link-aggregation-groups" },
    });
    const [vip] = items(
      call(state, "POST", "/network-interfaces", {
        query: "names=backup1",
        body: { address: "10.9.1.20", services: ["data"], type: "vip" },
      }),
    );
    expect(vip).toMatchObject({
      enabled: true,
      gateway: "10.9.0.1",
      netmask: "255.255.252.0",
      mtu: 1500,
      vlan: 90,
      subnet: { name: "backup-net", resource_type: "subnets" },
    });
    expect(list(state, "/subnets", "names=backup-net").items[0]).toMatchObject({
      interfaces: [{ name: "backup1", resource_type: "network-interfaces" }],
      services: ["data"],
    });
    // The subnet's MTU shows on its interfaces.
    call(state, "PATCH", "/subnets", { query: "names=backup-net", body: { mtu: 9000 } });
    expect(list(state, "/network-interfaces", "names=backup1").items[0]?.["mtu"]).toBe(9000);
  });

  it("refuses an address no subnet holds, inherited fields, bad prefixes and a used subnet's deletion", () => {
    const { state } = sim();
    expect400(
      state,
      "POST",
      "/network-interfaces",
      { query: "names=lost", body: { address: "192.168.7.7" } },
      /No subnet holds address 192\.168\.7\.7/,
    );
    expect400(
      state,
      "POST",
      "/network-interfaces",
      { query: "names=v9", body: { address: "10.21.100.99", mtu: 1500 } },
      /'mtu' comes from the subnet/,
    );
    expect400(
      state,
      "POST",
      "/network-interfaces",
      { query: "names=v9", body: { address: "10.21.100.10" } },
      /already used by network interface 'data1'/,
    );
    expect400(
      state,
      "POST",
      "/subnets",
      { query: "names=clash", body: { prefix: "10.21.100.128/25" } },
      /overlaps subnet 'data'/,
    );
    expect400(
      state,
      "POST",
      "/subnets",
      { query: "names=gw", body: { prefix: "10.30.0.0/24", gateway: "10.31.0.1" } },
      /Gateway 10\.31\.0\.1 is not in the subnet's prefix/,
    );
    expect400(
      state,
      "POST",
      "/subnets",
      { query: "names=tiny", body: { prefix: "10.30.0.0/24", mtu: 576 } },
      /mtu/,
    );
    expect400(
      state,
      "PATCH",
      "/subnets",
      { query: "names=data", body: { prefix: "10.21.101.0/24", gateway: "10.21.101.1" } },
      /'data1' \(10\.21\.100\.10\) would fall outside/,
    );
    expect400(
      state,
      "DELETE",
      "/subnets",
      { query: "names=data" },
      /still has network interfaces \(data1, data2\)/,
    );
    call(state, "DELETE", "/network-interfaces", { query: "names=data1,data2" });
    call(state, "DELETE", "/subnets", { query: "names=data" });
    expect(list(state, "/subnets").items.map((s) => s["name"])).toEqual(["replication", "legacy-backup"]);
  });

  it("moves an interface to the subnet of its new address", () => {
    const { state } = sim();
    const [moved] = items(
      call(state, "PATCH", "/network-interfaces", {
        query: "names=data2",
        body: { address: "10.21.200.22" },
      }),
    );
    expect(moved).toMatchObject({ subnet: { name: "replication" }, vlan: 200, gateway: "10.21.200.1" });
    expect(list(state, "/subnets", "names=data").items[0]?.["interfaces"]).toEqual([
      expect.objectContaining({ name: "data1" }),
    ]);
  });

  it("has no ids before REST 1.8", () => {
    const { state } = sim();
    expect(list(state, "/subnets", "", "1.7").items[0]).not.toHaveProperty("id");
    expect(list(state, "/network-interfaces", "", "1.7").items[0]).not.toHaveProperty("id");
    expect(list(state, "/subnets", "", "1.8").items[0]).toHaveProperty("id");
  });
});

describe("PATCH and DELETE /link-aggregation-groups", () => {
  it("adds and removes ports, and the group's speed follows", () => {
    const { state } = sim();
    expect(list(state, "/link-aggregation-groups", "names=uplink").items[0]).toMatchObject({
      port_speed: 40_000_000_000,
      lag_speed: 80_000_000_000,
    });
    const [grown] = items(
      call(state, "PATCH", "/link-aggregation-groups", {
        query: "names=uplink",
        body: { add_ports: [{ name: "CH1.FM1.ETH2" }, { name: "CH1.FM2.ETH2" }] },
      }),
    );
    expect(grown?.["lag_speed"]).toBe(160_000_000_000);
    expect(grown?.["ports"].map((p: { name: string }) => p.name)).toEqual([
      "CH1.FM1.ETH1",
      "CH1.FM2.ETH1",
      "CH1.FM1.ETH2",
      "CH1.FM2.ETH2",
    ]);
    const [shrunk] = items(
      call(state, "PATCH", "/link-aggregation-groups", {
        query: "names=uplink",
        body: { remove_ports: [{ name: "CH1.FM1.ETH1" }] },
      }),
    );
    expect(shrunk?.["lag_speed"]).toBe(120_000_000_000);
    expect400(
      state,
      "PATCH",
      "/link-aggregation-groups",
      { query: "names=uplink", body: { remove_ports: [{ name: "CH1.FM4.ETH9" }] } },
      /'CH1\.FM4\.ETH9' is not in link aggregation group 'uplink'/,
    );
    expect400(
      state,
      "PATCH",
      "/link-aggregation-groups",
      {
        query: "names=uplink",
        body: { ports: [{ name: "CH1.FM1.ETH3" }], add_ports: [{ name: "CH1.FM1.ETH4" }] },
      },
      /cannot be combined/,
    );
    expect400(
      state,
      "PATCH",
      "/link-aggregation-groups",
      { query: "names=uplink", body: { lag_speed: 1 } },
      /'lag_speed' is read-only/,
    );
  });

  it("keeps a group that subnets run on", () => {
    const { state } = sim();
    expect400(
      state,
      "DELETE",
      "/link-aggregation-groups",
      { query: "names=uplink" },
      /Subnets run on link aggregation group 'uplink' \(data, replication, legacy-backup\)/,
    );
    // The demo's retired legacy-lag carries no subnet: it goes.
    call(state, "DELETE", "/link-aggregation-groups", { query: "names=legacy-lag" });
    expect(list(state, "/link-aggregation-groups").items.map((l) => l["name"])).toEqual(["uplink"]);
  });
});
