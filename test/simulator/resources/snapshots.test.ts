import { describe, expect, it } from "vitest";
import { call, expect400, HOUR, items, list, q, sim } from "./helpers.js";

describe("POST /file-system-snapshots", () => {
  it("names each snapshot <fs>.<suffix> with source = the file system name", () => {
    const { state } = sim();
    const made = items(
      call(state, "POST", "/file-system-snapshots", {
        query: "sources=home,logs",
        body: { suffix: "pre-patch" },
      }),
    );
    expect(made.map((s) => [s["name"], s["source"], s["suffix"]])).toEqual([
      ["home.pre-patch", "home", "pre-patch"],
      ["logs.pre-patch", "logs", "pre-patch"],
    ]);
    const home = list(state, "/file-systems", "names=home").items[0];
    expect(made[0]).toMatchObject({
      destroyed: false,
      time_remaining: null,
      policy: null,
      source_id: home?.["id"],
      owner: { name: "home", id: home?.["id"], resource_type: "file-systems" },
      source_display_name: "home",
      source_is_local: true,
    });
  });

  it("chooses an increasing numeric suffix when none is given", () => {
    const { state } = sim("empty");
    call(state, "POST", "/file-systems", { body: { name: "fs1" } });
    const first = items(call(state, "POST", "/file-system-snapshots", { query: "sources=fs1" }))[0]?.[
      "suffix"
    ];
    const second = items(
      call(state, "POST", "/file-system-snapshots", { query: "sources=fs1", body: {} }),
    )[0]?.["suffix"];
    expect(Number(second)).toBeGreaterThan(Number(first));
    // A user-made snapshot that takes the next number is skipped, not duplicated.
    call(state, "POST", "/file-system-snapshots", {
      query: "sources=fs1",
      body: { suffix: String(Number(second) + 1) },
    });
    const third = items(call(state, "POST", "/file-system-snapshots", { query: "sources=fs1" }))[0]?.[
      "suffix"
    ];
    expect(Number(third)).toBe(Number(second) + 2);
  });

  it("refuses duplicates, unknown or destroyed sources and bad suffixes, creating none", () => {
    const { state } = sim();
    expect400(
      state,
      "POST",
      "/file-system-snapshots",
      { query: "sources=home", body: { suffix: "before-upgrade" } },
      /Snapshot 'home.before-upgrade' already exists/,
    );
    expect400(
      state,
      "POST",
      "/file-system-snapshots",
      { query: "sources=logs,nope", body: { suffix: "x" } },
      /Source file system 'nope' does not exist/,
    );
    expect400(
      state,
      "POST",
      "/file-system-snapshots",
      { query: "sources=old-share" },
      /'old-share' is destroyed/,
    );
    expect400(state, "POST", "/file-system-snapshots", { body: { suffix: "x" } }, /'sources' is required/);
    expect400(
      state,
      "POST",
      "/file-system-snapshots",
      { query: "sources=logs", body: { suffix: "a.b" } },
      /Invalid 'suffix'/,
    );
    expect400(
      state,
      "POST",
      "/file-system-snapshots",
      { query: "sources=logs", body: { name: "x" } },
      /'suffix' is required in SnapshotSuffix/,
    );
    expect400(
      state,
      "POST",
      "/file-system-snapshots",
      { query: "sources=logs", body: { suffix: "x", name: "y" } },
      /'name' is not a field of SnapshotSuffix/,
    );
    expect(list(state, "/file-system-snapshots", "names_or_sources=logs").items).toEqual([]);
  });
});

describe("GET /file-system-snapshots", () => {
  it("selects by names_or_sources, where every element must name a snapshot or a file system", () => {
    const { state } = sim();
    const env = list(state, "/file-system-snapshots", "names_or_sources=home.before-upgrade,builds");
    expect(env.items.every((s) => s["source"] === "builds" || s["name"] === "home.before-upgrade")).toBe(
      true,
    );
    expect(env.items).toHaveLength(25);
    expect(list(state, "/file-system-snapshots", "names_or_sources=logs").items).toEqual([]);
    expect400(
      state,
      "GET",
      "/file-system-snapshots",
      { query: "names_or_sources=home,ghost" },
      /No snapshot or file system named 'ghost'/,
    );
    expect400(
      state,
      "GET",
      "/file-system-snapshots",
      { version: "1.8", query: "names_or_owner_names=home" },
      /not accepted before REST 1.9/,
    );
  });

  it("filters on source and suffix as Ansible and Salt do", () => {
    const { state } = sim();
    const found = list(
      state,
      "/file-system-snapshots",
      q({ filter: "source='home' and suffix='before-upgrade'" }),
    ).items;
    expect(found.map((s) => s["name"])).toEqual(["home.before-upgrade"]);
    const wild = list(
      state,
      "/file-system-snapshots",
      q({ filter: "source='ho*' and contains(suffix,'weekly')" }),
    ).items;
    expect(wild.map((s) => s["name"]).sort()).toEqual(["home.weekly.1", "home.weekly.2", "home.weekly.3"]);
  });

  it("reports policy-made snapshots with their policy from 1.5, ids from 1.8, owner from 1.9", () => {
    const { state } = sim();
    const at = (v: string) =>
      list(state, "/file-system-snapshots", "names_or_sources=home.daily.1", v).items[0] ?? {};
    expect(at("1.4")).not.toHaveProperty("policy");
    expect(at("1.5")["policy"]).toMatchObject({ name: "daily", resource_type: "policies" });
    expect(at("1.7")).not.toHaveProperty("id");
    expect(at("1.8")).toHaveProperty("source_id");
    expect(at("1.8")).not.toHaveProperty("owner");
    expect(at("1.9")["owner"]).toMatchObject({ name: "home" });
    expect(at("1.0")).toEqual({
      name: "home.daily.1",
      created: expect.any(Number),
      suffix: "daily.1",
      source: "home",
    });
  });

  it("answers total_only up to 1.11 only", () => {
    const { state } = sim();
    expect(list(state, "/file-system-snapshots", "total_only=true", "1.11").items).toEqual([]);
    expect400(state, "GET", "/file-system-snapshots", { query: "total_only=true" }, /total_only/);
  });
});

describe("PATCH and DELETE /file-system-snapshots", () => {
  it("destroys, recovers, and eradicates only destroyed snapshots", () => {
    const { state, clock } = sim();
    expect400(
      state,
      "DELETE",
      "/file-system-snapshots",
      { query: "name=home.before-upgrade" },
      /'home.before-upgrade' is not destroyed; destroy it/,
    );
    const [d] = items(
      call(state, "PATCH", "/file-system-snapshots", {
        query: "name=home.before-upgrade",
        body: { destroyed: true },
      }),
    );
    expect(d).toMatchObject({ destroyed: true, time_remaining: 24 * HOUR });
    clock.advance(HOUR);
    expect(
      list(state, "/file-system-snapshots", "names_or_sources=home.before-upgrade").items[0]?.[
        "time_remaining"
      ],
    ).toBe(23 * HOUR);
    call(state, "DELETE", "/file-system-snapshots", { query: "name=home.before-upgrade" });
    expect400(
      state,
      "GET",
      "/file-system-snapshots",
      { query: "names_or_sources=home.before-upgrade" },
      /No snapshot or file system named/,
    );
  });

  it("selects by name, or by ids from 1.9, not both; accepts only 'destroyed'", () => {
    const { state } = sim();
    const id = list(state, "/file-system-snapshots", "names_or_sources=logs", "1.12").items[0]?.["id"];
    const snapId = list(state, "/file-system-snapshots", "names_or_sources=home.before-upgrade").items[0]?.[
      "id"
    ] as string;
    expect(id).toBeUndefined();
    expect400(
      state,
      "PATCH",
      "/file-system-snapshots",
      { version: "1.8", query: `ids=${snapId}`, body: { destroyed: true } },
      /'ids' is not accepted before REST 1.9/,
    );
    expect400(
      state,
      "PATCH",
      "/file-system-snapshots",
      { query: `ids=${snapId}&name=home.before-upgrade`, body: { destroyed: true } },
      /cannot be used together/,
    );
    expect400(
      state,
      "PATCH",
      "/file-system-snapshots",
      { query: "name=home.before-upgrade", body: { suffix: "x" } },
      /'suffix' is not a field of FileSystemSnapshot/,
    );
    expect400(
      state,
      "PATCH",
      "/file-system-snapshots",
      { body: { destroyed: true } },
      /'name' or 'ids' is required/,
    );
    const [d] = items(
      call(state, "PATCH", "/file-system-snapshots", {
        version: "1.9",
        query: `ids=${snapId}`,
        body: { destroyed: true },
      }),
    );
    expect(d?.["name"]).toBe("home.before-upgrade");
  });

  it("will not recover a snapshot of a destroyed file system", () => {
    const { state } = sim();
    call(state, "PATCH", "/file-system-snapshots", {
      query: "name=old-share.final",
      body: { destroyed: true },
    });
    expect400(
      state,
      "PATCH",
      "/file-system-snapshots",
      { query: "name=old-share.final", body: { destroyed: false } },
      /Recover file system 'old-share' before recovering its snapshot/,
    );
    const owner = list(state, "/file-system-snapshots", "names_or_sources=old-share.final").items[0];
    expect(owner).toMatchObject({ owner_destroyed: true, source_destroyed: true });
  });
});
