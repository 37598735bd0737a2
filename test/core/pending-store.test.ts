import { describe, expect, test } from "vitest";
import { createMemoryPendingStore, type PendingRecord } from "../../src/core/pending-store.js";

function record(id: string, expiresAt: number): PendingRecord {
  return {
    id,
    kind: "request",
    status: "pending",
    commandId: "fs.eradicate",
    args: { name: "old" },
    commandText: "fs eradicate old",
    requester: { userId: "bob" },
    channelId: "C1",
    array: "lab-1",
    requestId: "r1",
    destructiveClass: "eradicate",
    policy: "approve",
    approvalsRequired: 1,
    approverRole: "admin",
    approvals: [],
    fingerprint: "f",
    state: { used_bytes: 1 },
    display: { title: "t", summary: "s", facts: [], warnings: [], requests: [] },
    createdAt: 0,
    expiresAt,
    updatedAt: 0,
    messages: [],
  };
}

describe("in-memory pending store", () => {
  test("claim is a compare-and-set: of two concurrent claims exactly one wins", async () => {
    const store = createMemoryPendingStore();
    await store.create(record("p1", 100));
    const [a, b] = await Promise.all([store.claim("p1", "pending"), store.claim("p1", "pending")]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect((await store.get("p1"))?.status).toBe("claimed");
    expect(await store.claim("p1", "pending")).toBeUndefined();
  });

  test("records are copies: changing a returned record does not change the store", async () => {
    const store = createMemoryPendingStore();
    await store.create(record("p1", 100));
    const got = await store.get("p1");
    got?.approvals.push({ userId: "x", at: 1 });
    expect((await store.get("p1"))?.approvals).toEqual([]);
  });

  test("expireBefore expires pending records at or before now, once", async () => {
    const store = createMemoryPendingStore();
    await store.create(record("early", 100));
    await store.create(record("late", 200));
    expect((await store.expireBefore(100)).map((r) => r.id)).toEqual(["early"]);
    expect(await store.expireBefore(100)).toEqual([]);
    expect((await store.listOpen()).map((r) => r.id)).toEqual(["late"]);
  });

  test("duplicate ids are refused; update of a missing id is undefined", async () => {
    const store = createMemoryPendingStore();
    await store.create(record("p1", 100));
    await expect(store.create(record("p1", 100))).rejects.toThrow(/already exists/);
    expect(await store.update("nope", { status: "executed" })).toBeUndefined();
  });
});
