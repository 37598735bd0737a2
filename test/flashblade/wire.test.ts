import { describe, expect, it } from "vitest";
import { errorCode } from "../../src/errors.js";
import {
  adaptListQuery,
  bucketCreate,
  fileSystemCreateBody,
  fileSystemPatchBody,
  fileSystemUpdateQuery,
  promotionOf,
  replicationMetrics,
  selectOne,
  totalsAllowed,
} from "../../src/flashblade/wire.js";

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return errorCode(err);
  }
  return "none";
}

describe("version-dependent wire differences", () => {
  it("selects one file system or snapshot by name always, by ids only from 1.9", () => {
    expect(selectOne("fb", "1.4", "/file-systems", { name: "a" })).toEqual({ name: "a" });
    expect(selectOne("fb", "1.12", "/file-system-snapshots", { name: "a.s" })).toEqual({ name: "a.s" });
    expect(selectOne("fb", "1.9", "/file-systems", { id: "x" })).toEqual({ ids: ["x"] });
    expect(codeOf(() => selectOne("fb", "1.8", "/file-systems", { id: "x" }))).toBe("ARRAY_VERSION_TOO_OLD");
    expect(selectOne("fb", "1.8", "/buckets", { name: "b" })).toEqual({ names: ["b"] });
  });

  it("sends the bucket's account as `account` in every version (the SDK's `bucket` never reaches the wire)", () => {
    for (const v of ["1.8", "1.9", "1.12"]) {
      expect(bucketCreate(v, "b1", "acct")).toEqual({
        query: { names: ["b1"] },
        body: { account: { name: "acct" } },
      });
    }
  });

  it("drops total/total_only at 1.12 on the listings that lost them", () => {
    expect(totalsAllowed("/file-systems", "1.11")).toBe(true);
    expect(totalsAllowed("/file-systems", "1.12")).toBe(false);
    expect(totalsAllowed("/buckets", "1.12")).toBe(true);
    expect(adaptListQuery("/file-system-snapshots", "1.12", { total_only: true, limit: 5 })).toEqual({
      limit: 5,
    });
    expect(adaptListQuery("/file-system-snapshots", "1.11", { total_only: true })).toEqual({
      total_only: true,
    });
  });

  it("gates update fields by version and translates protocol field names", () => {
    expect(fileSystemPatchBody("fb", "1.10", { requested_promotion_state: "promoted" })).toEqual({
      requested_promotion_state: "promoted",
    });
    expect(codeOf(() => fileSystemPatchBody("fb", "1.8", { requested_promotion_state: "promoted" }))).toBe(
      "ARRAY_VERSION_TOO_OLD",
    );
    expect(codeOf(() => fileSystemPatchBody("fb", "1.0", { destroyed: true }))).toBe("ARRAY_VERSION_TOO_OLD");
    expect(fileSystemPatchBody("fb", "1.0", { provisioned: 5 })).toEqual({ provisioned: 5 });
    expect(fileSystemPatchBody("fb", "1.1", { smb: { acl_mode: "native" } })).toEqual({
      smb: { "acl-mode": "native" },
    });
    expect(fileSystemPatchBody("fb", "1.2", { smb: { acl_mode: "native" } })).toEqual({
      smb: { acl_mode: "native" },
    });
    expect(fileSystemCreateBody("fb", "1.5", { name: "a", nfs: { v3_enabled: true } })).toEqual({
      name: "a",
      nfs: { enabled: true },
    });
    expect(codeOf(() => fileSystemCreateBody("fb", "1.5", { name: "a", nfs: { v4_1_enabled: true } }))).toBe(
      "ARRAY_VERSION_TOO_OLD",
    );
  });

  it("refuses update fields before the version that has them, and asks for the demotion flag from 1.9", () => {
    const since: [Parameters<typeof fileSystemPatchBody>[2], string, string][] = [
      [{ hard_limit_enabled: true }, "1.3", "1.4"],
      [{ default_user_quota: 1 }, "1.5", "1.6"],
      [{ default_group_quota: 1 }, "1.5", "1.6"],
      [{ writable: false }, "1.8", "1.9"],
      [{ nfs: { v4_1_enabled: true } }, "1.5", "1.6"],
    ];
    for (const [patch, tooOld, first] of since) {
      expect(codeOf(() => fileSystemPatchBody("fb", tooOld, patch))).toBe("ARRAY_VERSION_TOO_OLD");
      expect(codeOf(() => fileSystemPatchBody("fb", first, patch))).toBe("none");
    }
    // Export rules, the snapshot directory and fast remove exist from 1.0.
    const always = {
      nfs: { rules: "*(ro)" },
      snapshot_directory_enabled: true,
      fast_remove_directory_enabled: true,
    };
    expect(fileSystemPatchBody("fb", "1.0", always)).toEqual(always);
    expect(fileSystemUpdateQuery("fb", "1.9", "a", { discardNonSnapshottedData: true })).toEqual({
      name: "a",
      discard_non_snapshotted_data: true,
    });
    expect(fileSystemUpdateQuery("fb", "1.12", "a", { ignoreUsage: true })).toEqual({
      name: "a",
      ignore_usage: true,
    });
    expect(codeOf(() => fileSystemUpdateQuery("fb", "1.8", "a", { discardNonSnapshottedData: true }))).toBe(
      "ARRAY_VERSION_TOO_OLD",
    );
  });

  it("reads the promotion state from whichever field the version reports", () => {
    expect(promotionOf({ requested_promotion_state: "promoted" })).toBe("promoted");
    expect(promotionOf({ promotion_status: "demoted", requested_promotion_state: "promoted" })).toBe(
      "demoted",
    );
  });

  it("reads replication metrics from async or periodic", () => {
    expect(replicationMetrics({ async: { a: 1 } })).toEqual({ a: 1 });
    expect(replicationMetrics({ periodic: { p: 2 } })).toEqual({ p: 2 });
    expect(replicationMetrics({})).toBeUndefined();
  });
});
