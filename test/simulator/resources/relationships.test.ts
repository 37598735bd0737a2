import { describe, expect, it } from "vitest";
import { call, expect400, GIB, items, list, q, sim } from "./helpers.js";

describe("object store access policies (1.12)", () => {
  it("ships the built-in policies and attaches users to them, listed from either side", () => {
    const { state } = sim();
    const names = list(state, "/object-store-access-policies").items.map((p) => p["name"]);
    expect(names).toEqual(
      expect.arrayContaining([
        "pure:policy/full-access",
        "pure:policy/bucket-list",
        "pure:policy/object-read",
      ]),
    );
    call(state, "POST", "/object-store-users", { query: "names=backup/auditor" });
    const [pair] = items(
      call(state, "POST", "/object-store-access-policies/object-store-users", {
        query: q({ policy_names: "pure:policy/object-read", member_names: "backup/auditor" }),
      }),
    );
    expect(pair).toMatchObject({
      policy: { name: "pure:policy/object-read", resource_type: "object-store-access-policies" },
      member: { name: "backup/auditor", resource_type: "object-store-users" },
    });
    for (const path of [
      "/object-store-access-policies/object-store-users",
      "/object-store-users/object-store-access-policies",
    ]) {
      expect(list(state, path, q({ member_names: "backup/auditor" })).items).toEqual([pair]);
      // The demo's analytics/reader already reads objects through the same policy.
      expect(
        list(state, path, q({ policy_names: "pure:policy/object-read" })).items.map((p) => p.member.name),
      ).toEqual(["analytics/reader", "backup/auditor"]);
    }
    expect400(
      state,
      "POST",
      "/object-store-users/object-store-access-policies",
      { query: q({ policy_names: "pure:policy/object-read", member_names: "backup/auditor" }) },
      /already has policy/,
    );
    expect400(
      state,
      "POST",
      "/object-store-access-policies/object-store-users",
      { query: q({ policy_names: "pure:policy/nope", member_names: "backup/auditor" }) },
      /policy 'pure:policy\/nope' does not exist/,
    );
    call(state, "DELETE", "/object-store-users/object-store-access-policies", {
      query: q({ policy_names: "pure:policy/object-read", member_names: "backup/auditor" }),
    });
    expect(
      list(state, "/object-store-access-policies/object-store-users", q({ member_names: "backup/auditor" }))
        .items,
    ).toEqual([]);
  });

  it("gives full_access=true users the full-access policy and forgets deleted users", () => {
    const { state } = sim();
    call(state, "POST", "/object-store-users", { query: "names=backup/root&full_access=true" });
    const held = () =>
      list(
        state,
        "/object-store-access-policies/object-store-users",
        q({ policy_names: "pure:policy/full-access" }),
      ).items.map((p) => p["member"].name);
    expect(held()).toContain("backup/root");
    call(state, "DELETE", "/object-store-users", { query: "names=backup/root" });
    expect(held()).not.toContain("backup/root");
  });
});

describe("policies of file system replica links (1.9+)", () => {
  it("lists, adds and removes by policy, local file system and remote, from either side", () => {
    const { state } = sim();
    const listed = list(
      state,
      "/policies/file-system-replica-links",
      q({ local_file_system_names: "home" }),
    ).items;
    expect(listed).toEqual([
      expect.objectContaining({
        policy: expect.objectContaining({ name: "daily" }),
        member: expect.objectContaining({ name: "home", resource_type: "file-systems" }),
        link: expect.objectContaining({ remote: expect.objectContaining({ name: "fb-dr-01" }) }),
      }),
    ]);
    call(state, "POST", "/policies", { query: "names=hourly-dr", body: { enabled: true } });
    const added = items(
      call(state, "POST", "/file-system-replica-links/policies", {
        version: "1.9",
        query: q({ policy_names: "hourly-dr", local_file_system_names: "home", remote_names: "fb-dr-01" }),
      }),
    );
    expect(added).toHaveLength(1);
    for (const path of ["/policies/file-system-replica-links", "/file-system-replica-links/policies"]) {
      expect(list(state, path, q({ policy_names: "hourly-dr" })).items.map((p) => p["member"].name)).toEqual([
        "home",
      ]);
    }
    expect(
      list(state, "/file-system-replica-links", "local_file_system_names=home").items[0]?.["policies"],
    ).toEqual([expect.objectContaining({ name: "daily" }), expect.objectContaining({ name: "hourly-dr" })]);
    expect400(
      state,
      "POST",
      "/policies/file-system-replica-links",
      {
        query: q({ policy_names: "hourly-dr", local_file_system_names: "media", remote_names: "fb-dr-01" }),
      },
      /No file system replica link matches/,
    );
    call(state, "DELETE", "/policies/file-system-replica-links", {
      query: q({ policy_names: "hourly-dr", local_file_system_names: "home", remote_names: "fb-dr-01" }),
    });
    expect(
      list(state, "/file-system-replica-links/policies", q({ policy_names: "hourly-dr" })).items,
    ).toEqual([]);
  });
});

describe("targets and remote credentials", () => {
  it("connects a new target after a moment, renames it, and keeps its credentials with it", () => {
    const { state, clock } = sim();
    const [made] = items(
      call(state, "POST", "/targets", { query: "names=s3-west", body: { address: "s3.example.com" } }),
    );
    expect(made).toMatchObject({ name: "s3-west", status: "connecting" });
    clock.advance(5_000);
    expect(list(state, "/targets", "names=s3-west").items[0]).toMatchObject({ status: "connected" });
    const [cred] = items(
      call(state, "POST", "/object-store-remote-credentials", {
        query: "names=s3-west/backup",
        body: { access_key_id: "AKIAEXAMPLE", secret_access_key: "wJalrXUtnFEMI/K7MDENG" },
      }),
    );
    expect(cred).toMatchObject({
      remote: { name: "s3-west", resource_type: "targets" },
      secret_access_key: "****",
    });
    const [renamed] = items(
      call(state, "PATCH", "/targets", { query: "names=s3-west", body: { name: "s3-archive" } }),
    );
    expect(renamed).toMatchObject({ name: "s3-archive", address: "s3.example.com" });
    expect(list(state, "/object-store-remote-credentials", "names=s3-archive/backup").items[0]).toMatchObject(
      {
        remote: { name: "s3-archive" },
        secret_access_key: "****",
      },
    );
    expect(
      JSON.stringify([list(state, "/object-store-remote-credentials"), list(state, "/audits")]),
    ).not.toContain("wJalrXUtnFEMI");
    expect400(
      state,
      "DELETE",
      "/targets",
      { query: "names=s3-archive" },
      /still has remote credentials \(s3-archive\/backup\)/,
    );
    const [stuck] = items(
      call(state, "POST", "/targets", { query: "names=nowhere", body: { address: "s3.nowhere.invalid" } }),
    );
    clock.advance(60_000);
    expect(list(state, "/targets", "names=nowhere").items[0]).toMatchObject({ status: "connecting" });
    expect(stuck?.["status_details"]).toMatch(/Unable to connect/);
  });

  it("names credentials after their array connection and refuses an unknown remote", () => {
    const { state } = sim();
    expect(list(state, "/object-store-remote-credentials").items[0]).toMatchObject({
      name: "fb-dr-01/repl-creds",
      remote: { name: "fb-dr-01", resource_type: "array-connections" },
      secret_access_key: "****",
    });
    expect400(
      state,
      "POST",
      "/object-store-remote-credentials",
      { query: "names=nowhere/c1", body: { access_key_id: "a", secret_access_key: "b" } },
      /no array connection or target named 'nowhere'/,
    );
    expect400(
      state,
      "POST",
      "/object-store-remote-credentials",
      { query: "names=plain", body: { access_key_id: "a", secret_access_key: "b" } },
      /'<remote>\/<name>'/,
    );
  });

  it("shows a connection key only in the answer that creates it", () => {
    const { state } = sim();
    const [key] = items(call(state, "POST", "/array-connections/connection-key"));
    expect(key?.["connection_key"]).not.toBe("****");
    expect(list(state, "/array-connections/connection-key").items[0]).toMatchObject({
      connection_key: "****",
    });
  });
});

describe("usage is not quota", () => {
  it("has group usage wherever user usage exists, and speaks of usage when refusing", () => {
    const { state } = sim();
    const userFs = new Set(list(state, "/usage/users").items.map((u) => u["file_system"].name));
    const groupFs = new Set(list(state, "/usage/groups").items.map((g) => g["file_system"].name));
    for (const fs of userFs) expect(groupFs).toContain(fs);
    // alice and bob write as engineering on home: their bytes are engineering's there.
    const eng = list(state, "/usage/groups", q({ file_system_names: "home", group_names: "engineering" }))
      .items[0];
    expect(eng?.["usage"]).toBe(Math.round(95.2 * GIB) + Math.round(41.7 * GIB));
    const err = () =>
      call(state, "GET", "/usage/users", { query: q({ file_system_names: "finance", uids: "1001" }) });
    expect(err).toThrow(/No user usage matches/);
    expect(() =>
      call(state, "GET", "/usage/groups", { query: q({ group_names: "ops", file_system_names: "finance" }) }),
    ).toThrow(/No group usage matches/);
  });
});
