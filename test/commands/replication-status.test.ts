import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Effect } from "../../src/core/context/pipeline-types.js";
import type { Simulator } from "../../src/simulator/index.js";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    simulatorClock: true,
    arrays: [{ name: "lab-1" }, { name: "lab-2" }, { name: "old-1", versions: "1.0-1.8" }],
  });
});
afterAll(async () => h.close());

const sim = (name = "lab-1"): Simulator => {
  const s = h.sims.get(name);
  if (!s) throw new Error(`no simulator ${name}`);
  return s;
};

function rowsOf(effects: readonly Effect[]): Record<string, string>[] {
  const t = messagesOf(effects)[0]?.blocks.find((b) => b.type === "table");
  if (t?.type !== "table") throw new Error("no table");
  return t.rows;
}
const rowOf = (effects: readonly Effect[], link: string) => {
  const r = rowsOf(effects).find((x) => x["link"] === link);
  if (!r) throw new Error(`no row for ${link}`);
  return r;
};

describe("replication status on one array", () => {
  test("every link with its lag against its interval, worst first, with the unprotected file systems", async () => {
    const effects = await h.run("carol", "replication status --array lab-1");
    const rows = rowsOf(effects);
    expect(rows.map((r) => [r["link"], r["verdict"]])).toEqual([
      ["logs-archive → fb-dr-01", "🔴 broken"],
      ["ml-datasets → fb-lab-02", "🔴 broken"],
      ["veeam-repo → fb-dr-01", "⏸️ paused"],
      ["builds → fb-dr-01", "🟡 behind"],
      ["home → fb-dr-01", "🟢 ok"],
      ["projects → fb-dr-01", "🟢 ok"],
      ["analytics-curated → fb-dr-01", "🟢 ok"],
    ]);
    // The demo paused veeam-repo 26 h ago; bucket links are measured against the 1 h default.
    expect(rows[2]).toMatchObject({ lag: "1d 2h", ratio: "26.0×", interval: "1h (no policy)" });
    // A daily policy's link (its rule runs at 02:00) is as old as its newest transferred snapshot: 10 h.
    expect(rowOf(effects, "home → fb-dr-01")).toMatchObject({
      interval: "1d (policy daily)",
      lag: "10h",
      ratio: "0.4×",
      rp: "2026-11-22 02:00 UTC (10h ago)",
    });
    const text = textOf(effects);
    expect(text).toContain("7 links (2 broken, 1 paused, 1 behind, 3 ok)");
    // Back from an outage 20 minutes ago, catching up at 4×: 5 h behind an hourly schedule.
    expect(rowOf(effects, "builds → fb-dr-01")).toMatchObject({
      interval: "1h (policy hourly)",
      lag: "5h",
      ratio: "5.0×",
    });
    // The same rule as `policy gaps`.
    expect(text).toContain(
      "Unprotected (no replica link, no snapshot policy): backups, db-dumps, logs, media, scratch, vm-images.",
    );
  });

  test("break-fix hints come from the array's own state; the paused link offers resume", async () => {
    const effects = await h.run("carol", "replication status --array lab-1");
    const text = textOf(effects);
    expect(text).toContain("The array connection to fb-lab-02 is partially connected.");
    expect(text).toContain(
      "Replication paths 10.41.0.50 (connecting), 10.41.0.51 (connecting) not connected",
    );
    expect(text).toContain("Bucket logs-archive must exist on fb-dr-01");
    expect(text).not.toContain("still hold a valid access key"); // the array's own detail names the cause
    // Credentials that went away are named on the paused link that uses them.
    const creds = sim().state.generic.get("/object-store-remote-credentials")?.items;
    const saved = creds?.get("fb-dr-01/repl-creds");
    creds?.delete("fb-dr-01/repl-creds");
    expect(textOf(await h.run("carol", "replication status --array lab-1"))).toContain(
      "Its remote credentials fb-dr-01/repl-creds no longer exist on lab-1.",
    );
    if (saved) creds?.set("fb-dr-01/repl-creds", saved);
    expect(text).toContain(
      "Resume it with `/array replica-link bucket resume veeam-repo --remote fb-dr-01 --array lab-1`",
    );
    const resumed = textOf(await h.click("bob", effects, "Resume veeam-repo"));
    expect(resumed).toContain("Resumed bucket replica link veeam-repo → fb-dr-01 on lab-1.");
    // Resumed after 26 h, it catches up rather than jumping back: behind at first, then within its interval.
    const row = () =>
      h.run("carol", "replication status --array lab-1").then((e) => rowOf(e, "veeam-repo → fb-dr-01"));
    expect(await row()).toMatchObject({ verdict: "🟡 behind", lag: "1d 2h" });
    h.clock.advance(8 * 3_600_000 + 20 * 60_000);
    expect(await row()).toMatchObject({ verdict: "🟢 ok", lag: "1h", ratio: "1.0×" });
    const pause = await h.run("bob", "bucket-link pause veeam-repo --array lab-1");
    await h.click("bob", pause, "Confirm");
  });

  test("a paused link's lag grows with the simulator's clock; a link broken through the control interface shows", async () => {
    const before = rowOf(await h.run("carol", "replication status --array lab-1"), "veeam-repo → fb-dr-01");
    h.clock.advance(3 * 3_600_000);
    const after = rowOf(await h.run("carol", "replication status --array lab-1"), "veeam-repo → fb-dr-01");
    expect(Number.parseFloat(after["ratio"] ?? "")).toBeCloseTo(
      Number.parseFloat(before["ratio"] ?? "") + 3,
      1,
    );

    sim().control.stateControl("set-link-status", {
      fileSystem: "home",
      status: "unhealthy",
      details: "A snapshot with the same name already exists on the target.",
    });
    h.clock.advance(90 * 60_000);
    const effects = await h.run("carol", "replication status --array lab-1");
    // Broken, it keeps the recovery point it had (02:00's snapshot) and the lag grows past it.
    expect(rowOf(effects, "home → fb-dr-01")).toMatchObject({
      verdict: "🔴 broken",
      rp: expect.stringContaining("02:00 UTC"),
    });
    expect(textOf(effects)).toContain("destroy and eradicate that snapshot on fb-dr-01");
    sim().control.stateControl("set-link-status", { fileSystem: "home", status: "replicating" });
    expect(rowOf(await h.run("carol", "replication status --array lab-1"), "home → fb-dr-01")).toMatchObject({
      verdict: "🟢 ok",
    });
  });
});

describe("replication status across arrays", () => {
  test("one table over every array, an Array column, and a line for an array without replication", async () => {
    const effects = await h.run("carol", "replication status --array all");
    const rows = rowsOf(effects);
    expect(rows.filter((r) => r["array"] === "lab-1")).toHaveLength(7);
    expect(rows.filter((r) => r["array"] === "lab-2")).toHaveLength(7);
    const ranks = rows.map((r) => ["🔴", "⏸", "🟡", "🟢"].findIndex((i) => r["verdict"]?.startsWith(i)));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const text = textOf(effects);
    expect(text).toContain("lab-2:backups");
    expect(text).toContain("old-1");
    expect(text).toContain("REST 1.9");
  });
});
