import { describe, expect, it } from "vitest";
import { findHandler } from "../../../src/simulator/resources/index.js";
import { call, expect400, items, list, sim } from "./helpers.js";

describe("generic collections", () => {
  it("creates with ?names= and a body, refuses duplicates, merges on PATCH, removes on DELETE", () => {
    const { state } = sim();
    const [m] = items(
      call(state, "POST", "/snmp-managers", {
        query: "names=nms2",
        body: { host: "nms2.example.com", version: "v2c", v2c: { community: "public" } },
      }),
    );
    expect(m).toMatchObject({ name: "nms2", host: "nms2.example.com", id: expect.any(String) });
    expect400(state, "POST", "/snmp-managers", { query: "names=nms2", body: {} }, /'nms2' already exists/);
    const [patched] = items(
      call(state, "PATCH", "/snmp-managers", { query: "names=nms2", body: { v2c: { community: "ops" } } }),
    );
    expect(patched).toMatchObject({ host: "nms2.example.com", v2c: { community: "ops" } });
    const viaId = items(
      call(state, "PATCH", "/snmp-managers", { query: `ids=${m?.["id"]}`, body: { notification: "inform" } }),
    );
    expect(viaId[0]).toMatchObject({ name: "nms2", notification: "inform" });
    call(state, "DELETE", "/snmp-managers", { query: "names=nms2" });
    expect400(state, "GET", "/snmp-managers", { query: "names=nms2" }, /'nms2' does not exist/);
    expect400(state, "DELETE", "/snmp-managers", { query: "names=nms2" }, /'nms2' does not exist/);
    expect400(state, "DELETE", "/snmp-managers", {}, /'names' or 'ids' is required/);
  });

  it("keeps SNMP strings within what clients accept and rejects identity fields in bodies", () => {
    const { state } = sim();
    expect400(
      state,
      "PATCH",
      "/snmp-managers",
      { query: "names=nms", body: { name: "x" } },
      /'name' cannot be set in the body/,
    );
    expect400(
      state,
      "POST",
      "/snmp-managers",
      { query: "names=m2", body: { v2c: { community: "c".repeat(33) } } },
      /'v2c.community' must be at most 32/,
    );
    expect400(
      state,
      "PATCH",
      "/snmp-agents",
      { body: { engine_id: "e".repeat(33) } },
      /'engine_id' must be at most 32/,
    );
  });

  it("serves singletons as one item that PATCH merges into and that cannot be created or deleted", () => {
    const { state } = sim();
    for (const path of [
      "/dns",
      "/smtp",
      "/support",
      "/snmp-agents",
      "/quotas/settings",
      "/syslog-servers/settings",
      "/arrays/eula",
    ]) {
      expect(list(state, path).items).toHaveLength(1);
    }
    const [dns] = items(call(state, "PATCH", "/dns", { body: { nameservers: ["1.1.1.1"] } }));
    expect(dns).toMatchObject({ domain: "example.com", nameservers: ["1.1.1.1"] });
    expect400(state, "PATCH", "/dns", { body: "nameservers" }, /body must be a JSON request object/);
    expect400(
      state,
      "PATCH",
      "/syslog-servers/settings",
      { query: "names=other", body: {} },
      /'other' does not exist/,
    );
  });

  it("seeds what the bot reads, with ids only from 1.8", () => {
    const { state } = sim();
    expect(list(state, "/hardware", "filter=type='fb'").items).toHaveLength(10);
    expect(list(state, "/hardware", "filter=status!='healthy'").items.map((h) => h["name"])).toEqual([
      "CH1.FB5",
    ]);
    expect(list(state, "/blades", "filter=status='unhealthy'").items.map((b) => b["name"])).toEqual([
      "CH1.FB5",
    ]);
    expect(list(state, "/network-interfaces").items.map((n) => n["name"])).toEqual([
      "data1",
      "data2",
      "repl1",
    ]);
    expect(list(state, "/admins", "names=pureuser").items).toHaveLength(1);
    expect(list(state, "/roles", "", "1.10").items.map((r) => r["name"])).toContain("readonly");
    expect(list(state, "/certificates").items[0]).toMatchObject({
      name: "management",
      status: "self-signed",
    });
    expect(list(state, "/targets").items.map((t) => t["status"])).toEqual(["connected", "connecting"]);
    expect(list(state, "/hardware", "", "1.7").items[0]).not.toHaveProperty("id");
    expect(list(state, "/hardware", "", "1.8").items[0]).toHaveProperty("id");
  });

  it("answers total_only on transfer listings up to 1.11 only", () => {
    const { state } = sim();
    expect(list(state, "/file-system-snapshots/transfer", "total_only=true", "1.11").items).toEqual([]);
    expect400(state, "GET", "/file-system-snapshots/transfer", { query: "total_only=true" }, /total_only/);
  });

  it("shows an admin's API token only with expose=true or when it is created", () => {
    const { state } = sim();
    expect(list(state, "/admins", "names=ops-bot").items[0]?.["api_token"].token).toBe("****");
    expect(list(state, "/admins", "names=ops-bot&expose=true").items[0]?.["api_token"].token).toMatch(/^T-/);
    const [created] = items(
      call(state, "PATCH", "/admins", {
        query: "names=pureuser",
        body: { create_api_token: true, api_token_timeout: 3_600_000 },
      }),
    );
    expect(created?.["api_token"].token).toMatch(/^T-/);
    expect(list(state, "/admins", "names=pureuser").items[0]?.["api_token"].token).toBe("****");
    expect400(
      state,
      "PATCH",
      "/admins",
      { query: "names=pureuser", body: { password: "new" } },
      /needs 'old_password'/,
    );
    const audits = list(state, "/audits").items;
    expect(JSON.stringify(audits)).not.toContain(created?.["api_token"].token);
  });

  it("has a handler for every endpoint of the table and none for other paths", () => {
    expect(findHandler("GET", "/keytabs")).toBeDefined();
    expect(findHandler("PATCH", "/hardware-connectors")).toBeDefined();
    expect(findHandler("GET", "/no-such-thing")).toBeUndefined();
    expect(findHandler("DELETE", "/arrays")).toBeUndefined();
  });
});

describe("/audits", () => {
  it("records each successful mutation with the user, command, arguments and time, secrets masked", () => {
    const { state, clock } = sim();
    const before = list(state, "/audits").items.length;
    call(state, "PATCH", "/file-systems", {
      query: "name=home",
      body: { provisioned: 2 ** 45 },
      user: "ops-bot",
    });
    call(state, "POST", "/object-store-access-keys", {
      query: "names=PSFBX",
      body: { user: { name: "backup/veeam" }, secret_access_key: "hunter2" },
    });
    expect(() => call(state, "PATCH", "/file-systems", { query: "name=nope", body: {} })).toThrow();
    list(state, "/file-systems");
    const audits = list(state, "/audits").items.slice(before);
    expect(audits).toHaveLength(2);
    expect(audits[0]).toMatchObject({
      command: "file-systems",
      subcommand: "update",
      arguments: `name=home {"provisioned":${2 ** 45}}`,
      user: "ops-bot",
      user_interface: "REST",
      time: clock.now,
    });
    expect(audits[1]?.["arguments"]).toContain('"secret_access_key":"****"');
    expect(JSON.stringify(audits)).not.toContain("hunter2");
  });
});
