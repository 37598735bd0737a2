import { describe, expect, it } from "vitest";
import { call, DAY, expect400, items, list, sim } from "./helpers.js";

describe("/buckets", () => {
  it("takes the account reference under 'account' in every version and refuses 'bucket'", () => {
    const { state } = sim();
    for (const [i, version] of ["1.5", "1.8", "1.9", "1.12"].entries()) {
      const [made] = items(
        call(state, "POST", "/buckets", {
          version,
          query: `names=b-${i}x`,
          body: { account: { name: "analytics" } },
        }),
      );
      expect(made).toMatchObject({ name: `b-${i}x`, account: { name: "analytics" } });
      expect400(
        state,
        "POST",
        "/buckets",
        { version, query: "names=b2", body: { bucket: { name: "analytics" } } },
        /names the bucket's account in 'account'.*not 'bucket'/,
      );
    }
  });

  it("refuses duplicates, unknown accounts, bad names and a missing reference", () => {
    const { state } = sim();
    expect400(
      state,
      "POST",
      "/buckets",
      { query: "names=veeam-repo", body: { account: { name: "backup" } } },
      /Bucket 'veeam-repo' already exists/,
    );
    expect400(
      state,
      "POST",
      "/buckets",
      { query: "names=new1", body: { account: { name: "ghost" } } },
      /account 'ghost' does not exist/,
    );
    expect400(
      state,
      "POST",
      "/buckets",
      { query: "names=Bad_Name", body: { account: { name: "backup" } } },
      /not a valid bucket name/,
    );
    expect400(
      state,
      "POST",
      "/buckets",
      { query: "names=new1", body: {} },
      /'account' is required in BucketPost/,
    );
    expect400(state, "POST", "/buckets", { body: { account: { name: "backup" } } }, /'names' is required/);
  });

  it("destroys, recovers and eradicates like file systems; versioning from 1.9", () => {
    const { state } = sim();
    expect400(state, "DELETE", "/buckets", { query: "names=veeam-repo" }, /'veeam-repo' is not destroyed/);
    expect(list(state, "/buckets", "names=tmp-export").items[0]).toMatchObject({
      destroyed: true,
      time_remaining: 14 * 3_600_000,
    });
    expect400(
      state,
      "PATCH",
      "/buckets",
      { query: "names=tmp-export", body: { versioning: "enabled" } },
      /'tmp-export' is destroyed/,
    );
    expect400(
      state,
      "PATCH",
      "/buckets",
      { version: "1.8", query: "names=veeam-repo", body: { versioning: "enabled" } },
      /'versioning' is not a field of BucketPatch in REST 1.8/,
    );
    expect400(
      state,
      "PATCH",
      "/buckets",
      { query: "names=veeam-repo", body: { versioning: "none" } },
      /'versioning'.*"enabled", "suspended"/,
    );
    call(state, "PATCH", "/buckets", { query: "names=veeam-repo", body: { versioning: "enabled" } });
    call(state, "DELETE", "/buckets", { query: "names=tmp-export" });
    expect(list(state, "/buckets", "filter=destroyed").items).toEqual([]);
  });

  it("removes its lifecycle rules and replica links with an eradicated bucket", () => {
    const { state } = sim();
    call(state, "PATCH", "/buckets", { query: "names=analytics-raw", body: { destroyed: true } });
    call(state, "DELETE", "/buckets", { query: "names=analytics-raw" });
    expect(list(state, "/lifecycle-rules", "filter=bucket.name='analytics-raw'").items).toEqual([]);
  });

  it("answers account space as the sum of its buckets, with a total", () => {
    const { state } = sim();
    const buckets = list(state, "/buckets", "filter=account.name='backup'").items;
    const [acct] = list(state, "/object-store-accounts", "names=backup").items;
    expect(acct?.["space"].virtual).toBe(buckets.reduce((s, b) => s + b["space"].virtual, 0));
    expect(acct?.["object_count"]).toBe(buckets.reduce((s, b) => s + b["object_count"], 0));
    expect(list(state, "/object-store-accounts", "total_only=true").total).toBeDefined();
  });
});

describe("object store accounts, users and access keys", () => {
  it("creates accounts without a body and users named account/user", () => {
    const { state } = sim();
    call(state, "POST", "/object-store-accounts", { query: "names=media" });
    const [u] = items(call(state, "POST", "/object-store-users", { query: "names=media/uploader" }));
    expect(u).toMatchObject({ name: "media/uploader", account: { name: "media" }, access_keys: [] });
    expect400(state, "POST", "/object-store-users", { query: "names=uploader" }, /use 'account\/user'/);
    expect400(
      state,
      "POST",
      "/object-store-users",
      { query: "names=ghost/u" },
      /account 'ghost' does not exist/,
    );
    expect400(
      state,
      "POST",
      "/object-store-users",
      { query: "names=media/u&full_access=true", version: "1.11" },
      /'full_access' is not accepted before REST 1.12/,
    );
    expect400(state, "DELETE", "/object-store-accounts", { query: "names=backup" }, /still has bucket/);
  });

  it("shows the secret access key only in the answer to the create call", () => {
    const { state } = sim();
    const [key] = items(
      call(state, "POST", "/object-store-access-keys", { body: { user: { name: "analytics/reader" } } }),
    );
    expect(key?.["name"]).toMatch(/^PSFB[A-Z]{40}$/);
    expect(key?.["secret_access_key"]).toMatch(/^\S{40}$/);
    const listed = list(state, "/object-store-access-keys", `names=${key?.["name"]}`).items[0];
    expect(listed).toMatchObject({ secret_access_key: null, user: { name: "analytics/reader" } });
    expect400(
      state,
      "POST",
      "/object-store-access-keys",
      { body: { user: { name: "analytics/reader" } } },
      /already has 2 access keys/,
    );
    expect(
      list(state, "/object-store-users", "names=analytics/reader").items[0]?.["access_keys"],
    ).toHaveLength(2);
  });

  it("imports a key with its secret from 1.10; refuses ids on the key listing from 1.10", () => {
    const { state } = sim();
    expect400(
      state,
      "POST",
      "/object-store-access-keys",
      {
        version: "1.9",
        query: "names=PSFBIMPORTED",
        body: { user: { name: "backup/veeam" }, secret_access_key: "s3cr3t" },
      },
      /'secret_access_key' is not a field/,
    );
    const [imp] = items(
      call(state, "POST", "/object-store-access-keys", {
        version: "1.10",
        query: "names=PSFBIMPORTED",
        body: { user: { name: "backup/veeam" }, secret_access_key: "s3cr3t" },
      }),
    );
    expect(imp).toMatchObject({ name: "PSFBIMPORTED", secret_access_key: "s3cr3t" });
    expect(imp).not.toHaveProperty("id");
    expect400(
      state,
      "GET",
      "/object-store-access-keys",
      { version: "1.10", query: "ids=x" },
      /'ids' is not accepted from REST 1.10 on/,
    );
    expect(list(state, "/object-store-access-keys", "", "1.9").items[0]).toHaveProperty("id");
    call(state, "PATCH", "/object-store-access-keys", {
      query: "names=PSFBIMPORTED",
      body: { enabled: false },
    });
    expect(list(state, "/object-store-access-keys", "names=PSFBIMPORTED").items[0]?.["enabled"]).toBe(false);
  });
});

describe("/object-store-access-keys import: malformed requests are refused and change nothing", () => {
  const post = (query: string, body: Record<string, unknown>) => ({ version: "1.10", query, body });
  const user = { name: "backup/veeam" };
  it.each([
    ["a name without a secret", post("names=PSFBNOSECRET", { user }), /'names' is only used to import/],
    ["a secret without a name", post("", { user, secret_access_key: "s3cr3t" }), /exactly one name/],
    ["two names", post("names=PSFBONE,PSFBTWO", { user, secret_access_key: "s3cr3t" }), /exactly one name/],
    ["an empty secret", post("names=PSFBEMPTY", { user, secret_access_key: "" }), /secret_access_key/],
    [
      "an unknown user",
      post("names=PSFBNOUSER", { user: { name: "backup/nobody" }, secret_access_key: "s" }),
      /nobody/,
    ],
  ])("%s", (_what, req, why) => {
    const { state } = sim();
    const before = [...state.accessKeys.keys()];
    expect400(state, "POST", "/object-store-access-keys", req, why);
    expect([...state.accessKeys.keys()]).toEqual(before);
  });

  it("an id already on the array", () => {
    const { state } = sim();
    const taken = [...state.accessKeys.values()].find((k) => k.user !== "backup/veeam")?.name ?? "";
    expect(taken).not.toBe("");
    for (const k of [...state.accessKeys.values()])
      if (k.user === "backup/veeam") state.accessKeys.delete(k.name);
    expect400(
      state,
      "POST",
      "/object-store-access-keys",
      post(`names=${taken}`, { user, secret_access_key: "s3cr3t" }),
      /already exists/,
    );
  });
});

describe("/lifecycle-rules (1.10+)", () => {
  it("creates rules named bucket/rule_id, choosing an id when none is given", () => {
    const { state } = sim();
    const [r] = items(
      call(state, "POST", "/lifecycle-rules", {
        version: "1.10",
        body: { bucket: { name: "veeam-repo" }, keep_previous_version_for: 7 * DAY },
      }),
    );
    expect(r).toMatchObject({ name: "veeam-repo/fbRule1", rule_id: "fbRule1", enabled: true, prefix: "" });
    expect(r).not.toHaveProperty("id");
    expect400(
      state,
      "POST",
      "/lifecycle-rules",
      { body: { bucket: { name: "veeam-repo" }, rule_id: "fbRule1", keep_previous_version_for: 1 } },
      /'veeam-repo\/fbRule1' already exists/,
    );
    expect400(
      state,
      "POST",
      "/lifecycle-rules",
      { body: { bucket: { name: "veeam-repo" } } },
      /'keep_previous_version_for' is required/,
    );
  });

  it("selects by names, or by ids (1.12+) only together with bucket_names or bucket_ids", () => {
    const { state } = sim();
    const [rule] = list(state, "/lifecycle-rules", "names=analytics-raw/tmp-cleanup").items;
    const id = rule?.["id"] as string;
    expect400(
      state,
      "PATCH",
      "/lifecycle-rules",
      { query: `ids=${id}`, body: { enabled: false } },
      /by 'ids' needs 'bucket_names' or 'bucket_ids'/,
    );
    expect400(
      state,
      "DELETE",
      "/lifecycle-rules",
      { query: `ids=${id}` },
      /by 'ids' needs 'bucket_names' or 'bucket_ids'/,
    );
    expect400(
      state,
      "PATCH",
      "/lifecycle-rules",
      { version: "1.11", query: `ids=${id}&bucket_names=analytics-raw`, body: {} },
      /'ids' is not accepted before REST 1.12/,
    );
    expect400(
      state,
      "PATCH",
      "/lifecycle-rules",
      { query: `ids=${id}&bucket_names=veeam-repo`, body: {} },
      /Lifecycle rule with id '.*' does not exist/,
    );
    const [patched] = items(
      call(state, "PATCH", "/lifecycle-rules", {
        query: `ids=${id}&bucket_names=analytics-raw`,
        body: { enabled: false, prefix: "scratch/" },
      }),
    );
    expect(patched).toMatchObject({ enabled: false, prefix: "scratch/" });
    const bucketId = list(state, "/buckets", "names=analytics-raw").items[0]?.["id"];
    call(state, "DELETE", "/lifecycle-rules", { query: `ids=${id}&bucket_ids=${bucketId}` });
    call(state, "DELETE", "/lifecycle-rules", { version: "1.10", query: "names=logs-archive/fbRule1" });
    expect(list(state, "/lifecycle-rules").items.map((r) => r["name"])).toEqual([
      "analytics-raw/expire-old-versions",
    ]);
    expect400(state, "PATCH", "/lifecycle-rules", { body: { enabled: true } }, /'names' is required/);
  });
});
