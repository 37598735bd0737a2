import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, test } from "vitest";
import type { PendingRecord, PendingStore } from "../../src/core/approvals/pending-store.js";
import { createDurablePendingStore } from "../../src/core/approvals/pending-store-durable.js";
import { createMemoryPendingStore } from "../../src/core/approvals/pending-store-memory.js";
import { createMemoryStore } from "../../src/store/memory.js";
import { openSqliteStore } from "../../src/store/sqlite.js";
import type { Store } from "../../src/store/types.js";

const dirs: string[] = [];
const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function record(id: string, over: Partial<PendingRecord> = {}): PendingRecord {
  return {
    id,
    kind: "request",
    status: "pending",
    commandId: "fs.eradicate",
    args: { name: "fs1" },
    commandText: "fs eradicate fs1",
    requester: { userId: "U1" },
    channelId: "C1",
    array: "fb1",
    requestId: "r1",
    destructiveClass: "eradicate",
    policy: "approve",
    approvalsRequired: 1,
    approverRole: "admin",
    approvals: [],
    fingerprint: "f",
    state: { destroyed: true },
    display: {
      title: "Eradicate fs1",
      summary: "fs1 is gone for good",
      facts: [],
      warnings: [],
      requests: [],
    },
    createdAt: 1000,
    expiresAt: 5000,
    updatedAt: 1000,
    messages: [],
    ...over,
  };
}

/** Every PendingStore must behave the same; each case runs against each. The durable stores' clock stays at 0. */
const impls: [string, () => PendingStore][] = [
  ["in-memory", () => createMemoryPendingStore()],
  ["memory Store", () => createDurablePendingStore(createMemoryStore({ now: () => 0 }))],
  [
    "SQLite Store",
    () => {
      const dir = mkdtempSync(join(tmpdir(), "pending-contract-"));
      dirs.push(dir);
      const store = openSqliteStore({ dataDir: dir, now: () => 0 });
      opened.push(store);
      return createDurablePendingStore(store);
    },
  ],
];

describe.each(impls)("%s pending store", (_name, open) => {
  test("claim is a compare-and-set: of two concurrent claims exactly one wins", async () => {
    const store = open();
    await store.create(record("p1", { expiresAt: 100 }));
    const [a, b] = await Promise.all([store.claim("p1", "pending"), store.claim("p1", "pending")]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect((await store.get("p1"))?.status).toBe("claimed");
    expect(await store.claim("p1", "pending")).toBeUndefined();
  });

  test("records are copies: changing a returned record does not change the store", async () => {
    const store = open();
    await store.create(record("p1", { expiresAt: 100 }));
    const got = await store.get("p1");
    got?.approvals.push({ userId: "x", at: 1 });
    expect((await store.get("p1"))?.approvals).toEqual([]);
  });

  test("expireBefore expires pending records at or before now, once", async () => {
    const store = open();
    await store.create(record("early", { expiresAt: 100 }));
    await store.create(record("late", { expiresAt: 200 }));
    expect((await store.expireBefore(100)).map((r) => r.id)).toEqual(["early"]);
    expect(await store.expireBefore(100)).toEqual([]);
    expect((await store.listOpen()).map((r) => r.id)).toEqual(["late"]);
  });

  test("approve adds a person once, only while pending, and claims on the last approval needed", async () => {
    const store = open();
    await store.create(record("p1", { approvalsRequired: 2, expiresAt: 100 }));
    // The same person twice at once: one approval, the other told it is a duplicate.
    const twice = await Promise.all([
      store.approve("p1", { userId: "alice", at: 10 }),
      store.approve("p1", { userId: "alice", at: 11 }),
    ]);
    expect(twice.map((o) => o.kind).sort()).toEqual(["duplicate", "recorded"]);
    expect((await store.get("p1"))?.approvals.map((a) => a.userId)).toEqual(["alice"]);
    const last = await store.approve("p1", { userId: "dave", at: 12 });
    expect(last.kind).toBe("claimed");
    expect(last.record?.status).toBe("claimed");
    expect(last.record?.approvals.map((a) => a.userId)).toEqual(["alice", "dave"]);
    expect((await store.approve("p1", { userId: "erin", at: 13 })).kind).toBe("closed");
    // Past the expiry the approval is not recorded; the record expires instead.
    await store.create(record("p2", { approvalsRequired: 1, expiresAt: 100 }));
    expect((await store.approve("p2", { userId: "alice", at: 100 })).kind).toBe("expired");
    expect((await store.get("p2"))?.approvals).toEqual([]);
  });

  test("interruptClaimed ends every claimed record once and leaves the rest", async () => {
    const store = open();
    await store.create(record("a", { expiresAt: 100 }));
    await store.create(record("b", { expiresAt: 100 }));
    await store.claim("a", "pending");
    const ended = await store.interruptClaimed(50);
    expect(ended.map((r) => [r.id, r.status, r.outcome, r.updatedAt])).toEqual([
      ["a", "interrupted", "INTERRUPTED", 50],
    ]);
    expect(await store.interruptClaimed(60)).toEqual([]);
    expect((await store.listOpen()).map((r) => r.id)).toEqual(["b"]);
  });

  test("duplicate ids are refused; update of a missing id is undefined", async () => {
    const store = open();
    await store.create(record("p1", { expiresAt: 100 }));
    await expect(store.create(record("p1", { expiresAt: 100 }))).rejects.toThrow(/already exists/);
    expect(await store.update("nope", { status: "executed" })).toBeUndefined();
  });
});

describe("pending store on SQLite", () => {
  it("survives a restart and stays single-use", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pending-"));
    dirs.push(dir);
    let t = 1000;
    const s1 = openSqliteStore({ dataDir: dir, now: () => t });
    const p1 = createDurablePendingStore(s1);
    await p1.create(record("a"));
    await p1.create(record("b", { expiresAt: 2000 }));
    await expect(p1.create(record("a"))).rejects.toMatchObject({ code: "PENDING_EXISTS" });
    await p1.update("a", {
      approvals: [{ userId: "U2", at: 1500 }],
      messages: [{ channelId: "C1", ts: "1.2" }],
    });
    await s1.close();

    const s2 = openSqliteStore({ dataDir: dir, now: () => t });
    const p2 = createDurablePendingStore(s2);
    expect(await p2.get("a")).toMatchObject({ approvals: [{ userId: "U2" }], messages: [{ ts: "1.2" }] });
    expect((await p2.listOpen()).map((r) => r.id).sort()).toEqual(["a", "b"]);

    const [x, y] = await Promise.all([p2.claim("a", "pending"), p2.claim("a", "pending")]);
    expect([x, y].filter(Boolean)).toHaveLength(1);
    expect(await p2.claim("a", "pending")).toBeUndefined();
    expect(await p2.update("missing", { status: "failed" })).toBeUndefined();

    t = 2000;
    const expired = await p2.expireBefore(t);
    expect(expired.map((r) => [r.id, r.status, r.updatedAt])).toEqual([["b", "expired", 2000]]);
    expect(await p2.expireBefore(t)).toEqual([]);
    expect((await p2.listOpen()).map((r) => r.id)).toEqual(["a"]);
    await s2.close();
  });
});
