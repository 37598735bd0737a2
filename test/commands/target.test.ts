import { describe, expect, test } from "vitest";
import { fileHarness } from "../core/file-harness.js";
import { textOf } from "../core/harness.js";

const h = fileHarness();

const sim = () => h.sim();
const targets = () => sim().state.generic.get("/targets")?.items;

describe("S3 targets", () => {
  test("list shows reachability; create, update, delete (approved) change the array", async () => {
    expect(textOf(await h.run("carol", "target list"))).toContain(
      "lab-minio | 10.41.7.9 | connecting (Connection timed out)",
    );
    expect(textOf(await h.run("alice", "target create wasabi --address s3.wasabisys.com"))).toContain(
      "Added S3 target wasabi (s3.wasabisys.com) on lab-1.",
    );
    expect(targets()?.get("wasabi")?.["address"]).toBe("s3.wasabisys.com");
    await h.run("alice", "target update wasabi --address s3.eu-central-1.wasabisys.com");
    expect(targets()?.get("wasabi")?.["address"]).toBe("s3.eu-central-1.wasabisys.com");
    // Deleting replication needs someone else's approval by default (delete_replication).
    const effects = await h.run("alice", "target delete wasabi");
    expect(textOf(effects)).toContain("Approval requested");
    expect(targets()?.has("wasabi")).toBe(true);
    await h.click("bob", effects, "Approve");
    expect(targets()?.has("wasabi")).toBe(false);
  });

  test("operators cannot add targets; a target in use is not deleted", async () => {
    expect(textOf(await h.run("bob", "target create x --address 10.0.0.1"))).toMatch(/admin/);
    const link = [...sim().state.bucketReplicaLinks.values()][0];
    const conn = link ? sim().state.arrayConnections.get(link.remoteId) : undefined;
    if (conn) conn.remote.name = "aws-archive";
    expect(textOf(await h.run("alice", "target delete aws-archive"))).toContain("delete them first");
  });
});
