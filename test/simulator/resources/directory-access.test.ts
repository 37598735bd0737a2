import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { call, expect400, HOUR, items, list, sim } from "./helpers.js";

describe("directory services", () => {
  it("lists a role mapping for every built-in role and maps it to a group", () => {
    const { state } = sim("empty");
    for (const version of ["1.4", "1.12"]) {
      expect(
        list(state, "/directory-services/roles", "", version)
          .items.map((r) => r["name"])
          .sort(),
      ).toEqual(["array_admin", "ops_admin", "readonly", "storage_admin"]);
    }
    const [ops] = items(
      call(state, "PATCH", "/directory-services/roles", {
        query: "names=ops_admin",
        body: { group: "noc", group_base: "ou=groups,dc=example,dc=com" },
      }),
    );
    expect(ops).toMatchObject({ name: "ops_admin", group: "noc", group_base: "ou=groups,dc=example,dc=com" });
    expect400(
      state,
      "PATCH",
      "/directory-services/roles",
      { query: "names=superuser", body: { group: "x" } },
      /'superuser' does not exist/,
    );
  });

  it("takes a bind password and shows it only as ****", () => {
    const { state } = sim();
    const [patched] = items(
      call(state, "PATCH", "/directory-services", {
        query: "names=management",
        body: { bind_password: "correct horse", bind_user: "cn=svc" },
      }),
    );
    expect(patched).toMatchObject({ bind_user: "cn=svc", bind_password: "****" });
    const all = list(state, "/directory-services").items;
    expect(all.map((s) => s["bind_password"])).toEqual(["****", "****", "****"]);
    expect(JSON.stringify([all, list(state, "/audits")])).not.toContain("correct horse");
  });
});

describe("Active Directory and keytabs (1.12)", () => {
  it("joins without keeping the password and creates keytabs from the account", () => {
    const { state } = sim("empty");
    const [ad] = items(
      call(state, "POST", "/active-directory", {
        query: "names=ad1",
        body: { domain: "corp.example.com", user: "joiner", password: "hunter2", computer_name: "FB1" },
      }),
    );
    expect(ad).toMatchObject({
      computer_name: "FB1",
      service_principal_names: [
        "nfs/fb1.corp.example.com",
        "HOST/fb1.corp.example.com",
        "cifs/fb1.corp.example.com",
      ],
    });
    expect(JSON.stringify([ad, list(state, "/active-directory")])).not.toContain("hunter2");
    const made = items(
      call(state, "POST", "/keytabs", { query: "name_prefixes=fb1", body: { source: { name: "ad1" } } }),
    );
    expect(made.map((k) => k["name"])).toEqual(["fb1.1", "fb1.2", "fb1.3"]);
    expect(made[0]).toMatchObject({
      prefix: "fb1",
      suffix: 1,
      principal: "nfs/fb1.corp.example.com@CORP.EXAMPLE.COM",
      realm: "CORP.EXAMPLE.COM",
      encryption_type: "aes256-cts-hmac-sha1-96",
      kvno: 2,
    });
    // A second rotation continues the suffixes and raises the key version.
    const again = items(
      call(state, "POST", "/keytabs", { query: "name_prefixes=fb1", body: { source: { name: "ad1" } } }),
    );
    expect(again.map((k) => [k["name"], k["kvno"]])).toEqual([
      ["fb1.4", 3],
      ["fb1.5", 3],
      ["fb1.6", 3],
    ]);
    expect400(
      state,
      "POST",
      "/keytabs",
      { body: { source: { name: "nope" } } },
      /Active Directory account 'nope' does not exist/,
    );
    call(state, "DELETE", "/keytabs", { query: "names=fb1.1" });
    expect(list(state, "/keytabs").items).toHaveLength(5);
  });
});

describe("/admins/cache", () => {
  it("refreshes and clears cached directory users by name", () => {
    const { state, clock } = sim();
    expect(list(state, "/admins/cache").items.map((a) => a["name"])).toEqual(["jdoe", "mlee"]);
    clock.advance(HOUR);
    const refreshed = list(state, "/admins/cache", "refresh=true&names=mlee").items;
    expect(refreshed).toEqual([expect.objectContaining({ name: "mlee", role: "readonly", time: clock.now })]);
    expect(list(state, "/admins/cache", "names=jdoe").items[0]?.["time"]).toBeLessThan(clock.now);
    call(state, "DELETE", "/admins/cache", { query: "names=jdoe" });
    expect(list(state, "/admins/cache").items.map((a) => a["name"])).toEqual(["mlee"]);
    expect400(state, "DELETE", "/admins/cache", { query: "names=jdoe" }, /'jdoe' does not exist/);
  });
});

describe("/api-clients (1.12)", () => {
  it("creates clients disabled, with a key id, and enables them by PATCH", () => {
    const { state } = sim("empty");
    const publicKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({
      type: "spki",
      format: "pem",
    }) as string;
    const [client] = items(
      call(state, "POST", "/api-clients", {
        query: "names=automation",
        body: { max_role: { name: "storage_admin" }, public_key: publicKey },
      }),
    );
    expect(client).toMatchObject({
      enabled: false,
      issuer: "automation",
      access_token_ttl_in_ms: 86_400_000,
      key_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      max_role: { name: "storage_admin" },
    });
    expect(
      items(call(state, "PATCH", "/api-clients", { query: "names=automation", body: { enabled: true } }))[0],
    ).toMatchObject({ enabled: true });
    expect400(
      state,
      "POST",
      "/api-clients",
      { query: "names=bad", body: { max_role: { name: "storage_admin" }, public_key: "nope" } },
      /not a PEM public key/,
    );
    expect400(
      state,
      "PATCH",
      "/api-clients",
      { query: "names=automation", body: { issuer: "x" } },
      /Only 'enabled' can change/,
    );
  });
});

describe("/arrays/supported-time-zones (1.12)", () => {
  it("lists the IANA zones", () => {
    const { state } = sim("empty");
    const zones = list(state, "/arrays/supported-time-zones").items.map((z) => z["name"]);
    expect(zones.length).toBeGreaterThan(300);
    expect(zones).toEqual(
      expect.arrayContaining(["Europe/Berlin", "America/Los_Angeles", "Asia/Tokyo", "UTC"]),
    );
  });
});
