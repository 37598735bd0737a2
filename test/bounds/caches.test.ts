/**
 * Resource bounds: the maps that grow with traffic keep a bound or an expiry. Slack delivery dedupe (by
 * count and time), the identity cache of users.info answers (by count, oldest first) and the in-memory pending
 * store (finished records forgotten a week after their expiry) each stay bounded under many distinct keys.
 *
 * The pipeline's own memory of request ids and their answers keeps the last DEDUPE_MAX. The audit behind it
 * (what else grows with traffic or arrays, and what bounds it): the paced client's per-method limiters (one
 * per method name), 429 gates (removed when the pause ends) and per-channel limiters (Bottleneck.Group drops
 * idle ones after 5 min), the array pool (one connection per configured array) and each array's limiter queue
 * (`maxQueue`, beyond it ARRAY_BUSY), in-flight work (removed on completion), the durable stores (pending
 * records and alerts expire or are pruned), and the simulator's request log, cursors and audits (bounded).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEEP_FINISHED_MS, type PendingRecord } from "../../src/core/approvals/pending-store.js";
import {
  createMemoryPendingStore,
  MAX_FINISHED_IN_MEMORY,
} from "../../src/core/approvals/pending-store-memory.js";
import { DEDUPE_MAX } from "../../src/core/pipeline/pipeline.js";
import { silentLogger } from "../../src/logger.js";
import { DeliveryDedupe } from "../../src/slack/dedupe.js";
import { SlackIdentity } from "../../src/slack/identity.js";
import { PacedSlackClient } from "../../src/slack/paced-client.js";
import { fileHarness } from "../core/file-harness.js";
import { textOf } from "../core/harness.js";
import { FakeSlackApi } from "../fakes/slack-api-server.js";
import { requestCount } from "../helpers/wire.js";

describe("delivery dedupe", () => {
  it("remembers at most `max` keys and forgets them after the TTL", async () => {
    let now = 0;
    const d = new DeliveryDedupe(60_000, () => now, 100);
    for (let i = 0; i < 1000; i++) expect(await d.firstTime(`k${i}`)).toBe(true);
    expect(d.size).toBeLessThanOrEqual(101);
    // The newest keys are still known: a retry of a recent delivery is still dropped.
    expect(await d.firstTime("k999")).toBe(false);
    now += 60_000;
    expect(await d.firstTime("k999")).toBe(true);
    for (let i = 0; i < 50; i++) await d.firstTime(`late${i}`);
    expect(d.size).toBeLessThanOrEqual(101);
  });
});

describe("identity cache", () => {
  let fake: FakeSlackApi;
  let client: PacedSlackClient;
  beforeAll(async () => {
    fake = await FakeSlackApi.start();
    client = new PacedSlackClient(
      fake.webClient("xoxb-b"),
      { channelIntervalMs: 0, maxRetries: 0 },
      silentLogger(),
    );
  });
  afterAll(async () => {
    await client.stop();
    await fake.close();
  });

  it("keeps at most maxUsers answers, dropping the least recently looked up", async () => {
    const id = new SlackIdentity(
      client,
      { groupIds: [], refreshMs: 60_000, userInfoTtlMs: 3_600_000, maxUsers: 20, now: () => 0 },
      silentLogger(),
    );
    for (let i = 0; i < 60; i++) await id.isRestricted(`U${i}`);
    expect(id.cachedUsers).toBe(20);
    const calls = () => fake.callsOf("users.info").length;
    const before = calls();
    await id.isRestricted("U59");
    expect(calls()).toBe(before);
    await id.isRestricted("U0");
    expect(calls()).toBe(before + 1);
    expect(id.cachedUsers).toBe(20);
  });
});

describe("in-memory pending store", () => {
  const record = (id: string, status: PendingRecord["status"], expiresAt: number) =>
    ({
      id,
      kind: "request",
      status,
      expiresAt,
      createdAt: 0,
      updatedAt: 0,
    }) as unknown as PendingRecord;

  it("forgets finished records a week after their expiry; open ones stay", async () => {
    const store = createMemoryPendingStore();
    for (let i = 0; i < 500; i++) await store.create(record(`done-${i}`, "executed", 1000));
    await store.create(record("open", "pending", 10 ** 13));
    await store.expireBefore(1000 + KEEP_FINISHED_MS - 1);
    expect(await store.get("done-0")).toBeDefined();
    await store.expireBefore(1000 + KEEP_FINISHED_MS);
    expect(await store.get("done-0")).toBeUndefined();
    expect(await store.get("done-499")).toBeUndefined();
    expect((await store.listOpen()).map((r) => r.id)).toEqual(["open"]);
  });

  it("keeps at most maxFinished finished records, the most recently finished; open ones are never dropped", async () => {
    const store = createMemoryPendingStore({ maxFinished: 100 });
    for (let i = 0; i < 50; i++) await store.create(record(`open-${i}`, "pending", 10 ** 13));
    // Finished as a click finishes them: created pending, then updated to a final status.
    for (let i = 0; i < 1000; i++) {
      await store.create(record(`done-${i}`, "pending", 10 ** 13));
      await store.update(`done-${i}`, { status: i % 2 ? "executed" : "cancelled" });
    }
    expect(store.size).toBe(150);
    expect(await store.get("done-0")).toBeUndefined();
    expect(await store.get("done-899")).toBeUndefined();
    expect((await store.get("done-900"))?.status).toBe("cancelled");
    expect((await store.get("done-999"))?.status).toBe("executed");
    expect(await store.listOpen()).toHaveLength(50);
    // An early record that finishes late is among the newest finished, so it is kept.
    await store.update("open-0", { status: "vetoed" });
    expect((await store.get("open-0"))?.status).toBe("vetoed");
    expect(await store.get("done-900")).toBeUndefined();
    expect(store.size).toBe(149);
  });

  it("keeps at most maxOffers offers (Recover buttons, open for a day), the newest; open requests all stay", async () => {
    const store = createMemoryPendingStore({ maxOffers: 100 });
    const offer = (id: string) => ({ ...record(id, "pending", 10 ** 13), kind: "offer" }) as PendingRecord;
    for (let i = 0; i < 20; i++) await store.create(record(`req-${i}`, "pending", 10 ** 13));
    // One offer per destroy, as the load makes them: each stays open until the object could be eradicated.
    for (let i = 0; i < 1000; i++) await store.create(offer(`offer-${i}`));
    expect(store.size).toBe(120);
    expect(await store.get("offer-899")).toBeUndefined();
    expect((await store.get("offer-900"))?.kind).toBe("offer");
    expect((await store.get("offer-999"))?.status).toBe("pending");
    expect((await store.listOpen()).filter((r) => r.kind === "request")).toHaveLength(20);
    // A used offer counts against the same bound, and does not also hold a place among the finished.
    await store.update("offer-999", { status: "executed" });
    await store.create(offer("offer-1000"));
    expect(store.size).toBe(120);
    expect(await store.get("offer-900")).toBeUndefined();
  });

  it("bounds finished records by default, whatever way they finish", async () => {
    const store = createMemoryPendingStore();
    for (let i = 0; i < MAX_FINISHED_IN_MEMORY + 500; i++) {
      await store.create(record(`r-${i}`, "pending", 1000));
      if (i % 3 === 0) await store.claim(`r-${i}`, "pending");
    }
    await store.interruptClaimed(2000);
    await store.expireBefore(2000);
    expect(store.size).toBe(MAX_FINISHED_IN_MEMORY);
    expect(await store.get(`r-${MAX_FINISHED_IN_MEMORY + 499}`)).toBeDefined();
  });
});

describe("the pipeline's answers to request ids", () => {
  const h = fileHarness({ arrays: [{ name: "lab-1" }] });
  const reads = () =>
    requestCount(h.sims.get("lab-1")?.control.stats() ?? { requests: {} }, "GET /api/1.12/file-systems");

  it(`keeps the answers of the last ${DEDUPE_MAX} request ids: an older id runs again, a recent one does not`, async () => {
    for (let i = 0; i <= DEDUPE_MAX; i++)
      await h.run("carol", "fs list --array lab-1", { requestId: `r${i}` });
    const before = reads();
    // The newest id is answered from its first run, without another read of the array.
    const again = await h.run("carol", "fs list --array lab-1", { requestId: `r${DEDUPE_MAX}` });
    expect(textOf(again)).toContain("file systems");
    expect(reads()).toBe(before);
    // The oldest fell out of the bound: it is read again (the Slack faces drop it earlier, by delivery id).
    await h.run("carol", "fs list --array lab-1", { requestId: "r0" });
    expect(reads()).toBeGreaterThan(before);
  });
});
