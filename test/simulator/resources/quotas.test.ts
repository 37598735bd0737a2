import { describe, expect, it } from "vitest";
import { setQuotaUsage } from "../../../src/simulator/state-control.js";
import { call, expect400, GIB, items, list, q, sim } from "./helpers.js";

describe("GET /quotas/users and /usage/users", () => {
  it("lists explicit quotas as <fs>/<user> with file system, default, quota, usage and user", () => {
    const { state } = sim();
    const [alice] = list(state, "/quotas/users", "file_system_names=home&uids=1001").items;
    expect(alice).toEqual({
      name: "home/alice",
      file_system: { name: "home", id: expect.any(String), resource_type: "file-systems" },
      file_system_default_quota: 50 * GIB,
      quota: 100 * GIB,
      usage: Math.round(95.2 * GIB),
      user: { id: 1001, name: "alice" },
    });
    // Filters as Ansible writes them; erin has usage but no explicit quota, so only the usage listing has her.
    expect(
      list(state, "/quotas/users", q({ filter: "user.name='carol'" })).items.map((u) => u["name"]),
    ).toEqual(["home/carol"]);
    expect(list(state, "/quotas/users", q({ filter: "user.id=1005" })).items).toEqual([]);
    const [erin] = list(state, "/usage/users", q({ filter: "user.id=1005" })).items;
    expect(erin).toMatchObject({ name: "home/erin", quota: 50 * GIB, usage: Math.round(12.8 * GIB) });
  });

  it("finds users over 90 % of their quota with a filter on the rendered fields", () => {
    const { state } = sim();
    const rows = list(state, "/quotas/users").items.filter((u) => u["usage"] / u["quota"] > 0.9);
    expect(rows.map((u) => u["name"]).sort()).toEqual([
      "builds/svc-build",
      "home/alice",
      "home/carol",
      "home/dave",
    ]);
  });

  it("refuses selector elements that match nothing after filtering", () => {
    const { state } = sim();
    expect400(
      state,
      "GET",
      "/quotas/users",
      { query: "file_system_names=nope" },
      /File system 'nope' does not exist/,
    );
    expect400(
      state,
      "GET",
      "/quotas/users",
      { query: "file_system_names=logs" },
      /No user quota matches file system 'logs'/,
    );
    expect400(
      state,
      "GET",
      "/quotas/users",
      { query: "uids=1001,4242" },
      /No user quota matches user '4242'/,
    );
    expect400(
      state,
      "GET",
      "/quotas/users",
      { query: q({ uids: "1001", filter: "usage>1000000000000" }) },
      /No user quota matches user '1001'/,
    );
    expect400(state, "GET", "/quotas/users", { query: "uids=alice" }, /'uids' entries must be numeric/);
    expect400(state, "GET", "/quotas/users", { query: "names=home/zed" }, /No user quota named 'home\/zed'/);
  });

  it("has no user_names on the user listings, but group_names on the group ones", () => {
    const { state } = sim();
    expect400(
      state,
      "GET",
      "/quotas/users",
      { query: "user_names=alice" },
      /'user_names' is not a parameter here/,
    );
    expect400(
      state,
      "GET",
      "/usage/users",
      { query: "user_names=alice" },
      /'user_names' is not a parameter here/,
    );
    expect(list(state, "/quotas/groups", "group_names=engineering").items.map((g) => g["name"])).toEqual([
      "projects/engineering",
    ]);
    expect400(
      state,
      "GET",
      "/quotas/groups",
      { query: "gids=3001&group_names=engineering" },
      /'gids' and 'group_names' cannot be used together/,
    );
    expect400(state, "GET", "/quotas/groups", { query: "group_names=nobody" }, /Group 'nobody' is not known/);
  });
});

describe("POST /quotas/users and /quotas/groups", () => {
  it("applies the quota to every selected user on each selected file system", () => {
    const { state } = sim();
    const made = items(
      call(state, "POST", "/quotas/users", {
        query: "file_system_names=scratch,logs&user_names=alice,bob",
        body: { quota: 10 * GIB },
      }),
    );
    expect(made.map((u) => u["name"])).toEqual(["scratch/alice", "scratch/bob", "logs/alice", "logs/bob"]);
    expect(made.every((u) => u["quota"] === 10 * GIB)).toBe(true);
    const byUid = items(
      call(state, "POST", "/quotas/groups", {
        query: "file_system_names=logs&gids=3004",
        body: { quota: GIB },
      }),
    );
    expect(byUid[0]).toMatchObject({ name: "logs/ops", group: { id: 3004, name: "ops" } });
  });

  it("refuses uids with user_names, missing selectors, duplicates and bad quotas, creating none", () => {
    const { state } = sim();
    expect400(
      state,
      "POST",
      "/quotas/users",
      { query: "file_system_names=logs&uids=1001&user_names=bob", body: { quota: GIB } },
      /'uids' and 'user_names' cannot be used together/,
    );
    expect400(
      state,
      "POST",
      "/quotas/users",
      { query: "uids=1001", body: { quota: GIB } },
      /'file_system_names' is required/,
    );
    expect400(
      state,
      "POST",
      "/quotas/users",
      { query: "file_system_names=logs", body: { quota: GIB } },
      /'uids' or 'user_names' is required/,
    );
    expect400(
      state,
      "POST",
      "/quotas/users",
      { query: "file_system_names=logs,home&uids=1001", body: { quota: GIB } },
      /User '1001' already has a quota on 'home'/,
    );
    expect400(
      state,
      "POST",
      "/quotas/users",
      { query: "file_system_names=logs&uids=1001", body: { quota: 0 } },
      /'quota'.*at least 1/,
    );
    expect400(
      state,
      "POST",
      "/quotas/users",
      { query: "file_system_names=logs&uids=1001", body: {} },
      /'quota' is required/,
    );
    expect400(
      state,
      "POST",
      "/quotas/users",
      { query: "file_system_names=old-share&uids=1001", body: { quota: GIB } },
      /'old-share' is destroyed/,
    );
    expect400(
      state,
      "POST",
      "/quotas/users",
      { query: "file_system_names=logs&user_names=mallory", body: { quota: GIB } },
      /User 'mallory' is not known/,
    );
    expect400(
      state,
      "GET",
      "/quotas/users",
      { query: "file_system_names=logs" },
      /No user quota matches file system 'logs'/,
    );
  });
});

describe("PATCH and DELETE quotas", () => {
  it("changes and deletes the selected quotas", () => {
    const { state } = sim();
    const changed = items(
      call(state, "PATCH", "/quotas/users", {
        query: "file_system_names=home&user_names=alice,carol",
        body: { quota: 200 * GIB },
      }),
    );
    expect(changed.map((u) => [u["name"], u["quota"]])).toEqual([
      ["home/alice", 200 * GIB],
      ["home/carol", 200 * GIB],
    ]);
    call(state, "PATCH", "/quotas/groups", { query: "names=projects/research", body: { quota: GIB } });
    expect(list(state, "/quotas/groups", "names=projects/research").items[0]?.["quota"]).toBe(GIB);
    call(state, "DELETE", "/quotas/users", { query: "names=home/dave" });
    expect(list(state, "/quotas/users", "file_system_names=home").items.map((u) => u["name"])).not.toContain(
      "home/dave",
    );
    // The usage stays: only the quota went.
    expect(list(state, "/usage/users", q({ filter: "user.name='dave'" })).items[0]).toMatchObject({
      quota: 50 * GIB,
    });
  });

  it("refuses selecting nothing and elements that match no quota", () => {
    const { state } = sim();
    expect400(state, "PATCH", "/quotas/users", { body: { quota: GIB } }, /Select quotas with/);
    expect400(
      state,
      "DELETE",
      "/quotas/users",
      { query: "file_system_names=home&uids=1006" },
      /No user quota matches file system 'home'/,
    );
    expect400(
      state,
      "PATCH",
      "/quotas/groups",
      { query: "gids=3001&group_names=ops", body: { quota: GIB } },
      /cannot be used together/,
    );
  });

  it("reports usage set through the control", () => {
    const { state } = sim();
    setQuotaUsage(state, "user", "home", "bob", 99 * GIB);
    expect(list(state, "/quotas/users", "names=home/bob").items[0]?.["usage"]).toBe(99 * GIB);
    expect(
      list(state, "/file-systems/users/performance", "file_system_names=home").items.length,
    ).toBeGreaterThan(3);
  });
});
