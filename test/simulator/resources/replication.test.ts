import { describe, expect, it } from "vitest";
import { setArrayConnectionStatus, setReplicaLinkStatus } from "../../../src/simulator/state-control.js";
import { call, expect400, HOUR, items, list, sim } from "./helpers.js";

describe("/bucket-replica-links", () => {
  it("lists links with status, lag and recovery point; a paused link's lag grows", () => {
    const { state, clock } = sim();
    const links = list(state, "/bucket-replica-links", "", "1.9").items;
    const byBucket = Object.fromEntries(links.map((l) => [l["local_bucket"].name, l]));
    expect(byBucket["analytics-curated"]).toMatchObject({
      status: "replicating",
      paused: false,
      direction: "outbound",
    });
    expect(byBucket["veeam-repo"]).toMatchObject({ status: "paused", paused: true, lag: 26 * HOUR });
    expect(byBucket["logs-archive"]).toMatchObject({
      status: "unhealthy",
      status_details: "The specified bucket does not exist.",
    });
    expect(byBucket["analytics-curated"]?.["lag"]).toBeLessThan(10_000);
    expect(byBucket["veeam-repo"]?.["recovery_point"]).toBe(clock.now - 26 * HOUR);
    clock.advance(HOUR);
    expect(list(state, "/bucket-replica-links", "local_bucket_names=veeam-repo").items[0]?.["lag"]).toBe(
      27 * HOUR,
    );
    expect(list(state, "/bucket-replica-links", "filter=paused").items).toHaveLength(1);
  });

  it("refuses exclusive selector pairs and elements that match no link", () => {
    const { state } = sim();
    const bucketId = list(state, "/buckets", "names=veeam-repo").items[0]?.["id"];
    expect400(
      state,
      "GET",
      "/bucket-replica-links",
      { query: `local_bucket_ids=${bucketId}&local_bucket_names=veeam-repo` },
      /'local_bucket_ids' and 'local_bucket_names' cannot be used together/,
    );
    expect400(
      state,
      "GET",
      "/bucket-replica-links",
      { query: "remote_ids=x&remote_names=fb-dr-01" },
      /'remote_ids' and 'remote_names' cannot be used together/,
    );
    expect400(
      state,
      "GET",
      "/bucket-replica-links",
      { query: "remote_names=fb-lab-02" },
      /No bucket replica link matches remote_names 'fb-lab-02'/,
    );
    expect(list(state, "/bucket-replica-links", `local_bucket_ids=${bucketId}`).items).toHaveLength(1);
    expect400(state, "PATCH", "/bucket-replica-links", { body: { paused: true } }, /Select links with/);
  });

  it("pauses, resumes, changes credentials and deletes", () => {
    const { state } = sim();
    const [paused] = items(
      call(state, "PATCH", "/bucket-replica-links", {
        query: "local_bucket_names=analytics-curated&remote_names=fb-dr-01",
        body: { paused: true },
      }),
    );
    expect(paused).toMatchObject({ paused: true, status: "paused" });
    const [resumed] = items(
      call(state, "PATCH", "/bucket-replica-links", {
        query: "local_bucket_names=veeam-repo",
        body: { paused: false },
      }),
    );
    expect(resumed).toMatchObject({ paused: false, status: "replicating" });
    expect400(
      state,
      "PATCH",
      "/bucket-replica-links",
      { query: "local_bucket_names=veeam-repo", body: { remote_credentials: { name: "nope" } } },
      /Remote credentials 'nope' do not exist/,
    );
    expect400(
      state,
      "PATCH",
      "/bucket-replica-links",
      { query: "local_bucket_names=veeam-repo", body: { status: "replicating" } },
      /'status' is not a field of BucketReplicaLink/,
    );
    call(state, "DELETE", "/bucket-replica-links", { query: "local_bucket_names=veeam-repo" });
    expect(list(state, "/bucket-replica-links").items).toHaveLength(2);
  });

  it("creates a link (not paused by default) through the credentials' remote; duplicates are a 400", () => {
    const { state } = sim();
    const query =
      "local_bucket_names=veeam-repo&remote_bucket_names=veeam-copy&remote_credentials_names=fb-dr-01/repl-creds";
    const [link] = items(call(state, "POST", "/bucket-replica-links", { query }));
    expect(link).toMatchObject({
      paused: false,
      status: "replicating",
      remote: { name: "fb-dr-01" },
      remote_bucket: { name: "veeam-copy" },
    });
    expect400(
      state,
      "POST",
      "/bucket-replica-links",
      { query },
      /already replicates to 'fb-dr-01:veeam-copy'/,
    );
    expect400(
      state,
      "POST",
      "/bucket-replica-links",
      {
        query: "local_bucket_names=ghost&remote_bucket_names=x&remote_credentials_names=fb-dr-01/repl-creds",
      },
      /Bucket 'ghost' does not exist/,
    );
    expect400(
      state,
      "POST",
      "/bucket-replica-links",
      { query: "local_bucket_names=veeam-repo&remote_bucket_names=x" },
      /'remote_credentials_names' must name exactly one/,
    );
    const [p] = items(
      call(state, "POST", "/bucket-replica-links", {
        query:
          "local_bucket_names=analytics-raw&remote_bucket_names=raw&remote_credentials_names=fb-dr-01/repl-creds",
        body: { paused: true },
      }),
    );
    expect(p?.["status"]).toBe("paused");
  });

  it("breaks and heals links through the control", () => {
    const { state } = sim();
    setReplicaLinkStatus(state, { bucket: "analytics-curated" }, "unhealthy", "Remote array unreachable.");
    expect(
      list(state, "/bucket-replica-links", "local_bucket_names=analytics-curated").items[0],
    ).toMatchObject({ status: "unhealthy", status_details: "Remote array unreachable." });
    setReplicaLinkStatus(state, { bucket: "logs-archive" }, "replicating");
    expect(list(state, "/bucket-replica-links", "local_bucket_names=logs-archive").items[0]).toMatchObject({
      status: "replicating",
      status_details: "",
    });
  });
});

describe("/array-connections and /file-system-replica-links", () => {
  it("selects connections by remote_names or remote_ids, never name or names", () => {
    const { state } = sim();
    expect(list(state, "/array-connections", "remote_names=fb-lab-02").items[0]).toMatchObject({
      status: "partially_connected",
      remote: { name: "fb-lab-02" },
    });
    expect400(
      state,
      "GET",
      "/array-connections",
      { query: "names=fb-dr-01" },
      /'names' is not a parameter here; array connections are selected by 'remote_names'/,
    );
    expect400(
      state,
      "PATCH",
      "/array-connections",
      { query: "name=fb-dr-01", body: {} },
      /'name' is not a parameter here/,
    );
    expect400(
      state,
      "DELETE",
      "/array-connections",
      { query: "remote_names=fb-dr-01" },
      /still has replica links/,
    );
    expect400(
      state,
      "GET",
      "/array-connections",
      { query: "remote_names=fb-nope" },
      /Array connection to 'fb-nope' does not exist/,
    );
    setArrayConnectionStatus(state, "fb-lab-02", "connected");
    const [c] = items(
      call(state, "PATCH", "/array-connections", {
        query: "remote_names=fb-lab-02",
        body: { encrypted: false },
      }),
    );
    expect(c).toMatchObject({ status: "connected", encrypted: false });
  });

  it("connects a new array and links a file system to it", () => {
    const { state } = sim();
    const [c] = items(
      call(state, "POST", "/array-connections", {
        body: { management_address: "10.51.0.20", connection_key: "k", remote: { name: "fb-new" } },
      }),
    );
    expect(c).toMatchObject({ remote: { name: "fb-new" }, status: "connected" });
    expect400(
      state,
      "POST",
      "/array-connections",
      { body: { management_address: "10.51.0.20", connection_key: "k" } },
      /already exists/,
    );
    const [link] = items(
      call(state, "POST", "/file-system-replica-links", {
        query: "local_file_system_names=logs&remote_names=fb-new",
      }),
    );
    expect(link).toMatchObject({
      local_file_system: { name: "logs" },
      remote: { name: "fb-new" },
      remote_file_system: { name: "logs" },
      status: "replicating",
    });
    expect400(
      state,
      "POST",
      "/file-system-replica-links",
      { query: "local_file_system_names=logs&remote_names=fb-new" },
      /already replicates/,
    );
    expect(list(state, "/file-system-replica-links", "remote_names=fb-lab-02").items[0]).toMatchObject({
      local_file_system: { name: "ml-datasets" },
      status: "unhealthy",
    });
  });

  it("selects file system links by every given selector; an element that matches no link is refused", () => {
    const { state } = sim();
    const both = list(state, "/file-system-replica-links", "local_file_system_names=ml-datasets").items;
    expect(both.map((l) => l["remote"].name)).toContain("fb-lab-02");
    expect(
      list(state, "/file-system-replica-links", "local_file_system_names=ml-datasets&remote_names=fb-lab-02")
        .items,
    ).toHaveLength(1);
    expect400(
      state,
      "GET",
      "/file-system-replica-links",
      { query: "local_file_system_names=ml-datasets,logs" },
      /No file system replica link matches local_file_system_names 'logs'/,
    );
  });
});
