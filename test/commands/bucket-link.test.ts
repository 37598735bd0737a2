import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Simulator } from "../../src/simulator/index.js";
import { type Harness, startHarness, textOf } from "../core/harness.js";
import { queryOf, requestMark, writesSince } from "./sim-requests.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ simulatorClock: true });
});
afterAll(async () => h.close());

const sim = (): Simulator => {
  const s = h.sims.get("lab-1");
  if (!s) throw new Error("no simulator");
  return s;
};
const linkOf = (bucket: string) =>
  [...sim().state.bucketReplicaLinks.values()].find((l) => l.localBucket === bucket);

describe("bucket-link", () => {
  test("list shows every link with status, lag and credentials; never a secret", async () => {
    const text = textOf(await h.run("carol", "bucket-link list"));
    expect(text).toContain("3 bucket replica links on array lab-1");
    expect(text).toContain("veeam-repo → fb-dr-01 | paused | 1d 2h");
    expect(text).toContain("fb-dr-01/repl-creds");
    expect(text).not.toMatch(/secret/i);
  });

  test("create sends the spec's name selectors and the link then shows in replication status", async () => {
    const m = requestMark(sim());
    const text = textOf(
      await h.run(
        "bob",
        "bucket-link create analytics-raw --remote fb-dr-01 --credentials fb-dr-01/repl-creds --remote-bucket media-dr",
      ),
    );
    expect(text).toContain("Created bucket replica link analytics-raw → fb-dr-01:media-dr on lab-1");
    const [post] = writesSince(sim(), m, "/bucket-replica-links");
    expect(Object.fromEntries(queryOf(post))).toEqual({
      local_bucket_names: "analytics-raw",
      remote_bucket_names: "media-dr",
      remote_credentials_names: "fb-dr-01/repl-creds",
    });
    expect(h.audits.at(-1)).toMatchObject({ command: "replica-link.bucket.create", outcome: "ok" });
    expect(textOf(await h.run("carol", "replication status"))).toContain("analytics-raw → fb-dr-01:media-dr");
  });

  test("create is answered before sending, dry run included, for a bucket the array lacks or a link it has", async () => {
    const m = requestMark(sim());
    for (const dry of ["", " --dry-run"]) {
      expect(
        textOf(
          await h.run(
            "bob",
            `bucket-link create media-assets --remote fb-dr-01 --credentials fb-dr-01/repl-creds${dry}`,
          ),
        ),
      ).toContain("There is no bucket media-assets on lab-1.");
    }
    expect(
      textOf(
        await h.run(
          "bob",
          "bucket-link create veeam-repo --remote fb-dr-01 --credentials fb-dr-01/repl-creds",
        ),
      ),
    ).toContain("Bucket veeam-repo already replicates to fb-dr-01:veeam-repo.");
    expect(writesSince(sim(), m, "/bucket-replica-links")).toHaveLength(0);
  });

  test("pause is gated as pause_replication; the card names the link, its lag and what stops", async () => {
    const m = requestMark(sim());
    const effects = await h.run("bob", "bucket-link pause analytics-curated");
    const card = textOf(effects);
    expect(card).toContain("analytics-curated → fb-dr-01");
    expect(card).toMatch(/Lag: \d+s/);
    expect(card).toContain("New and changed objects in analytics-curated stop reaching fb-dr-01");
    expect(writesSince(sim(), m, "/bucket-replica-links")).toHaveLength(0);
    const open = await h.store.listOpen();
    expect(
      open.filter((r) => r.kind === "request").map((r) => [r.commandId, r.destructiveClass, r.policy]),
    ).toEqual([["replica-link.bucket.pause", "pause_replication", "confirm"]]);
    await h.click("bob", effects, "Confirm");
    const [patch] = writesSince(sim(), m, "/bucket-replica-links");
    expect(Object.fromEntries(queryOf(patch))).toEqual({
      local_bucket_names: "analytics-curated",
      remote_names: "fb-dr-01",
    });
    expect(patch?.method).toBe("PATCH");
    expect(linkOf("analytics-curated")?.paused).toBe(true);
    expect(h.audits.at(-1)).toMatchObject({
      command: "replica-link.bucket.pause",
      decision: "confirmed",
      outcome: "ok",
    });
    h.clock.advance(2 * 3_600_000);
    expect(textOf(await h.run("carol", "replication status"))).toContain(
      "⏸️ paused | lab-1 | analytics-curated → fb-dr-01 | bucket | 1h (no policy) | 2h | 2.0×",
    );
    expect(textOf(await h.run("bob", "bucket-link pause analytics-curated"))).toContain("already paused");
  });

  test("resume runs at once (not gated) and the lag falls back", async () => {
    const text = textOf(await h.run("bob", "bucket-link resume analytics-curated"));
    expect(text).toContain("Resumed bucket replica link analytics-curated → fb-dr-01 on lab-1.");
    expect(linkOf("analytics-curated")?.paused).toBe(false);
    // Paused 2 h, it catches up at 4× the rate changes arrive: 2 h behind at first, 1 h after 20 min, then seconds.
    const status = () => h.run("carol", "replication status").then(textOf);
    expect(await status()).toContain(
      "🟡 behind | lab-1 | analytics-curated → fb-dr-01 | bucket | 1h (no policy) | 2h | 2.0×",
    );
    h.clock.advance(20 * 60_000);
    expect(await status()).toContain(
      "🟢 ok | lab-1 | analytics-curated → fb-dr-01 | bucket | 1h (no policy) | 1h | 1.0×",
    );
    h.clock.advance(30 * 60_000);
    expect(await status()).toMatch(
      /🟢 ok \| lab-1 \| analytics-curated → fb-dr-01 \| bucket \| 1h \(no policy\) \| \d+s \|/,
    );
  });

  test("delete needs an approval (delete_replication) and says when the bucket is then replicated nowhere", async () => {
    const effects = await h.run("bob", "bucket-link delete analytics-raw");
    expect(textOf(effects)).toContain(
      "analytics-raw is then replicated nowhere: this is its only replica link.",
    );
    expect(
      (await h.store.listOpen())
        .filter((r) => r.kind === "request")
        .map((r) => [r.commandId, r.destructiveClass]),
    ).toEqual([["replica-link.bucket.delete", "delete_replication"]]);
    await h.click("alice", effects, "Approve");
    expect(linkOf("analytics-raw")).toBeUndefined();
    expect(h.audits.at(-1)).toMatchObject({ command: "replica-link.bucket.delete", outcome: "ok" });
  });

  test("a bucket without a link, or to another remote, is answered before sending", async () => {
    const m = requestMark(sim());
    expect(textOf(await h.run("bob", "bucket-link pause tmp-export"))).toContain(
      "Bucket tmp-export has no replica link on lab-1.",
    );
    expect(textOf(await h.run("bob", "bucket-link pause veeam-repo --remote fb-lab-02"))).toContain(
      "Bucket veeam-repo has no replica link to fb-lab-02; its links go to fb-dr-01.",
    );
    expect(writesSince(sim(), m, "/bucket-replica-links")).toHaveLength(0);
  });

  test("viewers cannot pause", async () => {
    expect(textOf(await h.run("carol", "bucket-link pause veeam-repo"))).toMatch(/operator/);
  });
});
