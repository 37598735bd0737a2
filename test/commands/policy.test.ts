import { describe, expect, test } from "vitest";
import { fileHarness } from "../core/file-harness.js";
import { messagesOf, startHarness, textOf } from "../core/harness.js";
import { onWire } from "../helpers/wire.js";
import { queryOf, requestMark, writesSince } from "./sim-requests.js";

const h = fileHarness();

const sim = () => h.sim();
const liveSnapshotsOf = (policy: string) =>
  [...sim().state.snapshots.values()].filter((s) => s.policy?.name === policy && !s.destroyed).length;

describe("policy views", () => {
  test("rules read as text, with members and the snapshots the policy manages", async () => {
    const text = textOf(await h.run("carol", "policy show daily"));
    expect(text).toContain("Rules: every 1d at 02:00 UTC, keep 7d; every 7d at 03:00 UTC, keep 28d");
    expect(text).toContain("File systems: finance, home, projects");
    expect(text).toContain("Replica links: projects → fb-dr-01, home → fb-dr-01");
    expect(text).toContain("Snapshots it manages: 30 (finance 10, home 10, projects 10)");
  });

  test("gaps: exactly the demo's live file systems with no policy and no replica link, largest first", async () => {
    const state = sim().state;
    const covered = new Set<string>();
    for (const p of state.policies.values()) for (const m of p.members) covered.add(m);
    for (const l of state.fileSystemReplicaLinks.values()) covered.add(l.localFileSystem);
    const expected = [...state.fileSystems.values()]
      .filter((f) => !f.destroyed && !covered.has(f.name))
      .sort((a, b) => b.space.virtual - a.space.virtual)
      .map((f) => f.name);
    expect(expected).toEqual(["backups", "media", "vm-images", "logs", "db-dumps", "scratch"]);
    const effects = await h.run("carol", "policy gaps");
    expect(textOf(effects)).toContain(
      "6 file systems on array lab-1 with no snapshot policy and no replica link",
    );
    const table = messagesOf(effects)[0]?.blocks.find((b) => b.type === "table");
    if (table?.type !== "table") throw new Error("no table");
    expect(table.rows.map((r) => r["name"])).toEqual(expected);
    expect(table.rows[0]).toMatchObject({ name: "backups", used: "88.5 TiB", size: "unlimited" });
  });
});

describe("policy attach, detach, members", () => {
  test("attach to a file system and to a replica link shows in members; detach removes it", async () => {
    expect(textOf(await h.run("bob", "policy attach hourly scratch,logs"))).toContain(
      "Attached policy hourly to scratch, logs on lab-1.",
    );
    expect(textOf(await h.run("bob", "policy attach hourly home --remote fb-dr-01"))).toContain(
      "Attached policy hourly to replica link home → fb-dr-01 on lab-1.",
    );
    let members = textOf(await h.run("carol", "policy members hourly"));
    for (const row of ["logs | file system", "scratch | file system", "home → fb-dr-01 | replica link"]) {
      expect(members).toContain(row);
    }
    const detached = textOf(await h.run("bob", "policy detach hourly logs"));
    expect(detached).toContain("Detached policy hourly from logs on lab-1.");
    expect(detached).toContain("logs now has no snapshot policy and no replica link.");
    await h.run("bob", "policy detach hourly home --remote fb-dr-01");
    members = textOf(await h.run("carol", "policy members hourly"));
    expect(members).not.toContain("logs | file system");
    expect(members).not.toContain("home → fb-dr-01");
    expect(members).toContain("scratch | file system");
  });

  test("attaching twice, or to a link that does not exist, is answered before sending", async () => {
    const m = requestMark(sim());
    expect(textOf(await h.run("bob", "policy attach daily home"))).toContain(
      "Policy daily already protects home. Nothing was changed.",
    );
    expect(textOf(await h.run("bob", "policy attach daily media --remote fb-dr-01"))).toContain(
      "media has no replica link to fb-dr-01 (it has no replica links).",
    );
    expect(writesSince(sim(), m, "/policies/file-systems")).toHaveLength(0);
  });
});

describe("policy update: rules that own snapshots", () => {
  test("the simulator refuses a rule removal with owned snapshots without destroy_snapshots, as arrays do", async () => {
    const weekly = { every: 7 * 86_400_000, keep_for: 28 * 86_400_000, at: 3 * 3_600_000, time_zone: "UTC" };
    await expect(
      h.pool
        .get("lab-1")
        .patch("/policies", { query: { names: ["daily"] }, body: { remove_rules: [weekly] } }),
    ).rejects.toThrow(/destroy_snapshots=true/);
    expect(liveSnapshotsOf("daily")).toBe(30);
  });

  test("removal is gated by approval, lists the snapshots per file system, and sends destroy_snapshots only after approval", async () => {
    const before = liveSnapshotsOf("daily");
    const m = requestMark(sim());
    const effects = await h.run("bob", 'policy update daily --remove-rule "every 7d at 03:00, keep 28d"');
    const card = textOf(effects);
    expect(card).toContain("Approval needed: update policy daily on lab-1");
    // The weekly rule's snapshots (7, 14 and 21 days old by the array's clock, which has moved on since the
    // scenario was seeded) are older than the daily rule keeps any, so they are certainly the weekly rule's.
    expect(card).toContain(
      "Snapshots destroyed: between 9 and 30 snapshots (finance 3–10, home 3–10, projects 3–10)",
    );
    expect(card).toContain(onWire("PATCH /api/1.12/policies?names=daily&destroy_snapshots=true"));
    expect(writesSince(sim(), m, "/policies")).toHaveLength(0);
    expect(textOf(await h.click("bob", effects, "Approve"))).toContain("needs approval from someone else");
    expect(writesSince(sim(), m, "/policies")).toHaveLength(0);
    const done = textOf(await h.click("alice", effects, "Approve"));
    expect(done).toContain("Updated policy *daily* on lab-1: every 1d at 02:00 UTC, keep 7d.");
    const sent = writesSince(sim(), m, "/policies");
    expect(sent).toHaveLength(1);
    expect(queryOf(sent[0]).get("destroy_snapshots")).toBe("true");
    // The weekly rule made 3 snapshots of each of the 3 file systems.
    expect(liveSnapshotsOf("daily")).toBe(before - 9);
  });

  test("adding a rule or a policy without snapshots is not gated and never sends destroy_snapshots", async () => {
    const m = requestMark(sim());
    expect(
      textOf(await h.run("bob", 'policy update archive-monthly --rules "every 7d at 01:00, keep 28d"')),
    ).toContain("Updated policy *archive-monthly* on lab-1: every 7d at 01:00, keep 28d");
    const sent = writesSince(sim(), m, "/policies");
    expect(sent).toHaveLength(1);
    expect(queryOf(sent[0]).get("destroy_snapshots")).toBeNull();
  });

  test("a rule to remove that the policy does not have names its rules", async () => {
    expect(textOf(await h.run("bob", 'policy update hourly --remove-rule "every 2h, keep 1d"'))).toContain(
      'The policy has no rule "every 2h, keep 1d". Its rules: every 1h, keep 1d.',
    );
  });

  test("rules that make no sense are refused with the reason", async () => {
    expect(textOf(await h.run("bob", 'policy create bad --rules "every 1h at 02:00, keep 1d"'))).toContain(
      '"at" needs an interval of whole days',
    );
    expect(textOf(await h.run("bob", 'policy create bad --rules "every 1d, keep 1h"'))).toContain(
      "keeps snapshots for less than the interval",
    );
  });
});

describe("policy create and delete", () => {
  test("create, then delete gated as a delete", async () => {
    expect(
      textOf(await h.run("bob", 'policy create nightly --rules "every 1d at 02:00, keep 7d"')),
    ).toContain("Created policy *nightly* on lab-1: every 1d at 02:00, keep 7d.");
    expect(sim().state.policies.get("nightly")?.rules).toEqual([
      { every: 86_400_000, keep_for: 7 * 86_400_000, at: 7_200_000, time_zone: null },
    ]);
    const effects = await h.run("bob", "policy delete nightly");
    expect(textOf(effects)).toContain("Confirm: delete policy nightly on lab-1");
    await h.click("bob", effects, "Confirm");
    expect(sim().state.policies.has("nightly")).toBe(false);
  });
});

describe("shortening and older arrays", () => {
  test("shortening the only rule that made snapshots destroys them all: an exact count, gated", async () => {
    const effects = await h.run("bob", 'policy update hourly --rules "every 1h, keep 12h"');
    const card = textOf(effects);
    expect(card).toContain("Approval needed: update policy hourly on lab-1");
    expect(card).toContain("Snapshots destroyed: 24 snapshots (builds 24)");
    expect(card).toContain(
      onWire(
        'PATCH /api/1.12/policies?names=hourly&destroy_snapshots=true {"remove_rules":[{"every":3600000,"keep_for":86400000}],"add_rules":[{"every":3600000,"keep_for":43200000}]}',
      ),
    );
    await h.click("dave", effects, "Deny");
    expect(liveSnapshotsOf("hourly")).toBe(24);
  });

  test("before REST 1.11 there is no destroy_snapshots: the array keeps the snapshots and nothing is gated", async () => {
    const old = await startHarness({ arrays: [{ name: "old-1", versions: "1.0-1.10" }] });
    try {
      const text = textOf(
        await old.run("bob", 'policy update daily --remove-rule "every 7d at 03:00, keep 28d"'),
      );
      expect(text).toContain("Updated policy *daily* on old-1: every 1d at 02:00 UTC, keep 7d.");
      expect(text).not.toContain("destroyed");
      const snaps = [...(old.sims.get("old-1")?.state.snapshots.values() ?? [])];
      expect(snaps.filter((s) => s.policy?.name === "daily" && !s.destroyed)).toHaveLength(30);
    } finally {
      await old.close();
    }
  });
});

describe("arrays without policies", () => {
  test("before REST 1.5, gaps lists every live file system and says why; policy commands say what they need", async () => {
    const old = await startHarness({ arrays: [{ name: "old-1", versions: "1.0-1.4" }] });
    try {
      const gaps = textOf(await old.run("carol", "policy gaps"));
      expect(gaps).toContain("11 file systems on array old-1 with no snapshot policy and no replica link");
      expect(gaps).toContain("Arrays older than REST 1.5 have no snapshot policies");
      expect(textOf(await old.run("carol", "policy list"))).toContain(
        "The snapshot policy API needs REST 1.5, old-1 runs 1.4. Nothing was sent.",
      );
    } finally {
      await old.close();
    }
  });
});
