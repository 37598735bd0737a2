/** The console's demo pair: fb-dr-01 is the replication target of fb-lab-01, and the status tells that story. */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Effect } from "../../src/core/context/pipeline-types.js";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    simulatorClock: true,
    arrays: [
      { name: "fb-lab-01", scenario: "demo" },
      { name: "fb-dr-01", scenario: "demo-dr" },
    ],
  });
});
afterAll(async () => h.close());

function rowsOf(effects: readonly Effect[]): Record<string, string>[] {
  const t = messagesOf(effects)[0]?.blocks.find((b) => b.type === "table");
  if (t?.type !== "table") throw new Error("no table");
  return t.rows;
}

describe("the demo pair", () => {
  test("replication status --array all: one sorted table, one line per link, the unprotected, who is whose target", async () => {
    const effects = await h.run("carol", "replication status --array all");
    expect(rowsOf(effects).map((r) => [r["verdict"], r["array"], r["link"]])).toEqual([
      ["🔴 broken", "fb-lab-01", "logs-archive → fb-dr-01"],
      ["🔴 broken", "fb-lab-01", "ml-datasets → fb-lab-02"],
      ["⏸️ paused", "fb-lab-01", "veeam-repo → fb-dr-01"],
      ["🟡 behind", "fb-lab-01", "builds → fb-dr-01"],
      ["🟢 ok", "fb-lab-01", "home → fb-dr-01"],
      ["🟢 ok", "fb-lab-01", "projects → fb-dr-01"],
      ["🟢 ok", "fb-lab-01", "analytics-curated → fb-dr-01"],
    ]);
    const text = textOf(effects);
    expect(text).toContain(
      "Unprotected (no replica link, no snapshot policy): fb-lab-01:backups, fb-lab-01:db-dumps, fb-lab-01:logs, fb-lab-01:media, fb-lab-01:scratch, fb-lab-01:vm-images, fb-dr-01:dr-drills.",
    );
    expect(text).toContain("fb-dr-01 is the target of 5 links from fb-lab-01");
    expect(text).toContain("Bucket logs-archive must exist on fb-dr-01");
    expect(text).toContain("Running but 5.0× its interval behind");
  });

  test("the target holds the replicated file systems and buckets, demoted, and not the missing bucket", async () => {
    const dr = h.sims.get("fb-dr-01")?.state;
    expect(dr?.fileSystems.get("home")?.requested_promotion_state).toBe("demoted");
    expect(dr?.buckets.has("veeam-repo")).toBe(true);
    expect(dr?.buckets.has("logs-archive")).toBe(false);
    const conns = textOf(await h.run("carol", "array-connection list --array all"));
    expect(conns).toContain("fb-lab-01 | fb-dr-01 | connected");
    expect(conns).toContain("fb-dr-01 | fb-lab-01 | connected");
  });

  test("the behind link catches up as time passes; the paused one falls further behind", async () => {
    h.clock.advance(90 * 60_000);
    const rows = rowsOf(await h.run("carol", "replication status --array fb-lab-01"));
    expect(rows.find((r) => r["link"] === "builds → fb-dr-01")?.["verdict"]).toBe("🟢 ok");
    expect(rows.find((r) => r["link"] === "veeam-repo → fb-dr-01")).toMatchObject({ lag: "1d 3h" });
  });

  test("replication perf: per array (files and objects), per connection and per target, on both arrays", async () => {
    const text = textOf(await h.run("carol", "replication perf --array all"));
    for (const line of [
      "fb-lab-01 | fb-lab-01 (file systems) |",
      "fb-lab-01 | fb-lab-01 (buckets) |",
      "fb-lab-01 | connection to fb-dr-01 |",
      "fb-lab-01 | S3 target aws-archive |",
      "fb-dr-01 | connection to fb-lab-01 |",
    ]) {
      expect(text).toContain(line);
    }
    expect(text).toMatch(/\/s/);
  });
});
