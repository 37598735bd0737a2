import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { changesOf } from "../../commands/history.js";
import type { AuditRecord } from "../../src/core/audit/audit.js";
import { createAuditHistory } from "../../src/core/audit/audit-history.js";
import { createConsoleSession } from "../../src/local/console-session.js";
import { createMemoryStore } from "../../src/store/memory.js";
import { type Harness, messagesOf, startHarness } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  // The arrays' clock is the bot's: their audit log and the bot's records are compared by time.
  h = await startHarness({ shareClock: true });
});
afterAll(async () => h.close());

function session() {
  const out: string[] = [];
  const s = createConsoleSession({
    pipeline: h.pipeline,
    outcomes: { records: h.audits },
    initialUser: "alice",
    knownUsers: { alice: "admin", bob: "operator", carol: "viewer", dave: "admin" },
    io: { write: (t) => out.push(t), ask: async () => undefined },
  });
  return { s, all: () => out.join("\n"), since: (n: number) => out.slice(n).join("\n"), out };
}

describe("/array history", () => {
  test("a viewer sees who asked, who approved, when, what was sent and what the array answered", async () => {
    const { s, out, since } = session();
    await s.handleLine("/as bob");
    expect(await s.handleLine("/array fs resize scratch 4T")).toEqual({ ok: true });
    await s.handleLine("/as alice");
    expect(await s.handleLine("1")).toEqual({ ok: true });

    await s.handleLine("/as carol");
    const mark = out.length;
    expect(await s.handleLine("/array history fs scratch")).toEqual({ ok: true });
    const shown = since(mark);
    expect(shown).toContain("1 change to fs scratch on lab-1 through this bot");
    expect(shown).toContain("`fs resize` requested by bob · Approved by alice — done");
    expect(shown).toMatch(/lab-1: PATCH \/file-systems\?\S*name=scratch \{"provisioned":4398046511104\}/);
    expect(shown).toContain("2026-11-22");
    // `show` may be typed too.
    const again = out.length;
    expect(await s.handleLine("/array history show fs scratch")).toEqual({ ok: true });
    expect(since(again)).toContain("requested by bob · Approved by alice — done");
    const none = out.length;
    expect(await s.handleLine("/array history fs home")).toEqual({ ok: true });
    expect(since(none)).toContain("No change to fs home on lab-1 through this bot is on record.");
    // A change refused before anything was planned is on record as refused, with nothing sent.
    await s.handleLine("/as alice");
    expect(await s.handleLine("/array fs recover builds")).toEqual({ ok: false });
    await s.handleLine("/as carol");
    const refused = out.length;
    expect(await s.handleLine("/array history fs builds")).toEqual({ ok: true });
    expect(since(refused)).toContain("`fs recover` requested by alice — refused, nothing sent:");
    const bad = out.length;
    expect(await s.handleLine("/array history nonsense x")).toEqual({ ok: false });
    expect(since(bad)).toContain("`nonsense` is not something the bot changes");
  });
});

describe("destroyed through the bot", () => {
  test("space trash and fs list --destroyed name the chat user, not only the array's API user", async () => {
    const { s, out, since } = session();
    await s.handleLine("/as bob");
    expect(await s.handleLine("/array fs destroy scratch")).toEqual({ ok: true });
    expect(await s.handleLine("1")).toEqual({ ok: true });
    await s.handleLine("/as carol");
    const trash = out.length;
    expect(await s.handleLine("/array space trash")).toEqual({ ok: true });
    expect(since(trash)).toMatch(/scratch .*bob \(via the bot\), just now/);
    const listed = out.length;
    expect(await s.handleLine(`/array fs list --destroyed --where "name ~ scratch"`)).toEqual({ ok: true });
    expect(since(listed)).toMatch(/Destroyed by/);
    expect(since(listed)).toMatch(/scratch \(destroyed\) .*bob \(via the bot\)/);
    // Recovered, it is no longer in the trash; the history keeps both changes.
    await s.handleLine("/as alice");
    expect(await s.handleLine("/array fs recover scratch")).toEqual({ ok: true });
    const hist = out.length;
    expect(await s.handleLine("/array history fs scratch")).toEqual({ ok: true });
    expect(since(hist)).toContain("`fs destroy` requested by bob · Confirmed by bob — done");
  });
});

describe("destroyed by a policy change through the bot", () => {
  test("space trash names who asked and who approved the rule removal for every snapshot it destroyed", async () => {
    const st = h.sims.get("lab-1")!.state;
    const before = new Set([...st.snapshots.values()].filter((x) => x.destroyed).map((x) => x.name));
    const asked = await h.run("bob", 'policy update daily --remove-rule "every 7d at 03:00 UTC, keep 28d"');
    await h.click("alice", asked, "Approve");
    const destroyed = [...st.snapshots.values()]
      .filter((x) => x.destroyed && !before.has(x.name))
      .map((x) => x.name);
    expect(destroyed.length).toBeGreaterThan(0);
    const table = messagesOf(await h.run("carol", "space trash")).flatMap((m) =>
      m.blocks.flatMap((b) => (b.type === "table" ? b.rows : [])),
    );
    for (const name of destroyed) {
      const row = table.find((r) => r["kind"] === "snapshot" && r["name"] === name);
      expect(row?.["by"], name).toMatch(/^bob, approved by alice \(policy update daily\) \(via the bot\), /);
    }
    // A snapshot destroyed before, by no change of the bot's, is not claimed for it.
    for (const r of table.filter((x) => x["kind"] === "snapshot" && before.has(x["name"] ?? "")))
      expect(r["by"]).not.toContain("policy update");
  });
});

describe("audit history in the store", () => {
  const rec = (i: number): AuditRecord => ({
    id: `r${i}`,
    at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    userId: "U1",
    channelId: "C1",
    arrays: ["a"],
    command: "fs.resize",
    args: { name: "x" },
    decision: "allowed",
    outcome: "ok",
    durationMs: 1,
  });

  test("keeps the last `keep` records per object, oldest gone first, each object apart", async () => {
    const history = createAuditHistory(createMemoryStore({ now: () => Date.UTC(2026, 0, 2) }), {
      keep: 3,
      days: 90,
    });
    for (let i = 0; i < 5; i++) await history.add({ array: "a", kind: "fs", name: "x" }, rec(i));
    await history.add({ array: "b", kind: "fs", name: "x" }, rec(9));
    const kept = await history.of({ array: "a", kind: "fs", name: "x" });
    expect(kept.map((r) => r.id)).toEqual(["r2", "r3", "r4"]);
    expect((await history.of({ array: "b", kind: "fs", name: "x" })).map((r) => r.id)).toEqual(["r9"]);
  });

  test("a record older than `days` is gone", async () => {
    let now = Date.UTC(2026, 0, 2);
    const history = createAuditHistory(createMemoryStore({ now: () => now }), { keep: 50, days: 30 });
    await history.add({ array: "a", kind: "fs", name: "x" }, rec(0));
    expect(await history.of({ array: "a", kind: "fs", name: "x" })).toHaveLength(1);
    now = Date.UTC(2026, 1, 1);
    expect(await history.of({ array: "a", kind: "fs", name: "x" })).toHaveLength(0);
  });
});

describe("a change's records, as history joins them", () => {
  const base = {
    at: "2026-11-22T12:00:00.000Z",
    channelId: "C1",
    arrays: ["lab-1"],
    command: "fs.resize",
    args: { name: "builds" },
    pendingId: "p1",
    requester: { userId: "UALICE" },
    durationMs: 1,
  };
  const sent = ["lab-1: PATCH /file-systems?names=builds"];
  const at = (s: number) => new Date(Date.UTC(2026, 10, 22, 12, 0, s)).toISOString();
  const asked: AuditRecord = {
    ...base,
    id: "r0",
    userId: "UALICE",
    decision: "pending",
    outcome: "ok",
    sent,
  };
  const executing: AuditRecord = {
    ...base,
    id: "p1.executing",
    at: at(1),
    userId: "UOPS4",
    decision: "executing",
    outcome: "ok",
    approvedBy: ["UOPS4"],
  };
  const approved: AuditRecord = {
    ...base,
    id: "c4",
    at: at(2),
    userId: "UOPS4",
    decision: "approved",
    approvedBy: ["UOPS4"],
    outcome: "ok",
    sent,
  };
  // A second Approve that lost the race, its record written after the winner's.
  const lateDuplicate: AuditRecord = {
    ...base,
    id: "c9",
    at: at(3),
    userId: "UOPS9",
    decision: "denied",
    outcome: "error",
    errorCode: "PENDING_CLOSED",
    sent,
  };

  test("a click refused after the change was carried out does not change how it ended", () => {
    const [change] = changesOf([asked, executing, approved, lateDuplicate]);
    expect(change?.decidedBy).toBe("Approved by UOPS4");
    expect(change?.outcome).toBe("done");
    expect(change?.lastAt).toBe(Date.parse(at(2)));
  });

  test("records written out of order: the furthest stage decides, not the last record written", () => {
    // On replicas, the request's own record and a first approval can land after the approval that carried it
    // out (the replicas suite caught both as "waiting for confirmation or approval").
    const oneOfTwo: AuditRecord = {
      ...approved,
      id: "c1",
      at: at(4),
      userId: "UOPS1",
      decision: "approval_recorded",
    };
    for (const order of [
      [executing, approved, oneOfTwo],
      [executing, approved, asked],
      [approved, executing],
    ]) {
      const [change] = changesOf(order);
      expect(change?.outcome).toBe("done");
      expect(change?.lastAt).toBe(Date.parse(at(2)));
    }
  });

  test("a change still being sent, or waiting for a second approval, is not shown as done", () => {
    expect(changesOf([asked, executing])[0]?.outcome).toBe("being sent to the array");
    const oneOfTwo: AuditRecord = { ...approved, id: "c1", decision: "approval_recorded" };
    expect(changesOf([asked, oneOfTwo, lateDuplicate])[0]?.outcome).toBe(
      "waiting for confirmation or approval; nothing sent yet",
    );
  });
});
