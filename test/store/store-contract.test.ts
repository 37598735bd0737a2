import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BotError } from "../../src/errors.js";
import { createExecutionLeases } from "../../src/store/execution-lease.js";
import { joinKey, keyPrefix } from "../../src/store/keys.js";
import { acquireLease } from "../../src/store/lease.js";
import { createMemoryStore } from "../../src/store/memory.js";
import { openRedisStore } from "../../src/store/redis.js";
import { openSqliteStore } from "../../src/store/sqlite.js";
import type { Store } from "../../src/store/types.js";
import { type RedisServer, startRedis } from "./redis-server.js";

/** Every implementation must behave identically; every case runs against each. */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis.close());
let prefixes = 0;

const impls: [string, (now: () => number) => Store][] = [
  ["memory", (now) => createMemoryStore({ now })],
  [
    "sqlite",
    (now) => {
      const dir = mkdtempSync(join(tmpdir(), "store-contract-"));
      dirs.push(dir);
      return openSqliteStore({ dataDir: dir, now });
    },
  ],
  // One server for the file; each store gets its own key prefix, so cases never see each other's keys.
  [
    "redis",
    (now) => openRedisStore({ host: "127.0.0.1", port: redis.port, keyPrefix: `t${++prefixes}:`, now }),
  ],
];

describe.each(impls)("%s store", (_name, open) => {
  it("round-trips JSON documents and returns copies, not shared objects", async () => {
    const s = open(() => 1000);
    const doc = { a: 1, nested: { list: [1, "two", null] } };
    await s.write([{ op: "put", ns: "n", key: "k", value: doc }]);
    const got = await s.get<typeof doc>("n", "k");
    expect(got).toEqual(doc);
    got!.a = 2;
    expect(await s.get("n", "k")).toEqual(doc);
    expect(await s.get("n", "missing")).toBeUndefined();
    expect(await s.get("other", "k")).toBeUndefined();
    await s.close();
  });

  it("lists a namespace in key order, by prefix, with a limit", async () => {
    const s = open(() => 1000);
    await s.write([
      { op: "put", ns: "n", key: joinKey("b", "2"), value: 2 },
      { op: "put", ns: "n", key: joinKey("a", "1"), value: 1 },
      { op: "put", ns: "n", key: joinKey("b", "1"), value: 3 },
      { op: "put", ns: "n", key: joinKey("b/x", "1"), value: 4 },
      { op: "put", ns: "n", key: joinKey("b", "\u{1F600}"), value: 5 },
      { op: "put", ns: "m", key: joinKey("b", "9"), value: 9 },
    ]);
    const all = await s.list<number>("n");
    expect(all.map((e) => e.value)).toHaveLength(5);
    const b = await s.list<number>("n", { prefix: keyPrefix("b") });
    expect(b.map((e) => e.value)).toEqual([3, 2, 5]);
    expect((await s.list<number>("n", { prefix: keyPrefix("b"), limit: 1 })).map((e) => e.value)).toEqual([
      3,
    ]);
    await s.close();
  });

  it("applies a batch entirely or not at all", async () => {
    const s = open(() => 1000);
    await s.write([{ op: "put", ns: "n", key: "keep", value: 1 }]);
    const bad = [
      { op: "put" as const, ns: "n", key: "new", value: 2 },
      { op: "delete" as const, ns: "n", key: "keep" },
      { op: "put" as const, ns: "n", key: "broken", value: undefined },
    ];
    await expect(s.write(bad)).rejects.toBeInstanceOf(BotError);
    expect(await s.get("n", "keep")).toBe(1);
    expect(await s.get("n", "new")).toBeUndefined();
    await s.close();
  });

  it("hides and sweeps expired entries by the injected clock", async () => {
    let t = 1000;
    const s = open(() => t);
    await s.write([
      { op: "put", ns: "n", key: "short", value: "s", expiresAt: 2000 },
      { op: "put", ns: "n", key: "forever", value: "f" },
    ]);
    expect((await s.list("n")).map((e) => e.key)).toEqual(["forever", "short"]);
    expect((await s.list("n")).find((e) => e.key === "short")?.expiresAt).toBe(2000);
    t = 2000;
    expect(await s.get("n", "short")).toBeUndefined();
    expect((await s.getMany("n", ["short", "forever"])).size).toBe(1);
    expect(await s.sweepExpired()).toBe(1);
    expect(await s.sweepExpired()).toBe(0);
    await s.close();
  });

  it("take consumes an entry exactly once", async () => {
    const s = open(() => 1000);
    await s.write([{ op: "put", ns: "p", key: "id", value: { who: "U1" } }]);
    const [first, second] = await Promise.all([s.take("p", "id"), s.take("p", "id")]);
    expect([first, second].filter((x) => x !== undefined)).toEqual([{ who: "U1" }]);
    expect(await s.get("p", "id")).toBeUndefined();
    await s.close();
  });

  it("update is an atomic read-modify-write that can delete", async () => {
    const s = open(() => 1000);
    const bump = (c: number | undefined) => (c ?? 0) + 1;
    await Promise.all([s.update("c", "n", bump), s.update("c", "n", bump), s.update("c", "n", bump)]);
    expect(await s.get("c", "n")).toBe(3);
    // A compare-and-set: only the caller that sees "pending" wins.
    await s.write([{ op: "put", ns: "p", key: "r", value: { status: "pending" } }]);
    const claim = (cur: { status: string } | undefined) =>
      cur?.status === "pending" ? { status: "claimed" } : cur;
    const a = await s.update("p", "r", claim);
    expect(a).toEqual({ status: "claimed" });
    expect(await s.update("c", "n", () => undefined)).toBeUndefined();
    expect(await s.get("c", "n")).toBeUndefined();
    const exp = await s.update("c", "t", () => 1, { expiresAt: 1001 });
    expect(exp).toBe(1);
    expect((await s.list("c"))[0]?.expiresAt).toBe(1001);
    await s.update("c", "t", () => 2);
    expect((await s.list("c"))[0]?.expiresAt).toBe(1001);
    await s.close();
  });

  it("a guarded write applies only while the lease is held with that fence", async () => {
    let t = 1000;
    const s = open(() => t);
    const a = (await acquireLease(s, "poll/x", "a", 500, t))!;
    const guard = { lease: "poll/x", owner: "a", fence: a.fence };
    await s.write([{ op: "put", ns: "n", key: "k", value: 1 }], { guard });
    expect(await s.update("n", "k", (c: number | undefined) => (c ?? 0) + 1, { guard })).toBe(2);
    t = 1500;
    const b = await acquireLease(s, "poll/x", "b", 500, t);
    expect(b?.fence).toBe(a.fence + 1);
    await expect(s.write([{ op: "put", ns: "n", key: "k", value: 9 }], { guard })).rejects.toMatchObject({
      code: "STORE_FENCED",
    });
    await expect(s.update("n", "k", () => 9, { guard })).rejects.toMatchObject({ code: "STORE_FENCED" });
    await expect(
      s.write([{ op: "put", ns: "n", key: "k", value: 9 }], {
        guard: { lease: "poll/missing", owner: "a", fence: 1 },
      }),
    ).rejects.toMatchObject({ code: "STORE_FENCED" });
    expect(await s.get("n", "k")).toBe(2);
    await s.close();
  });

  it("many concurrent read-modify-writes of one key lose nothing", async () => {
    const s = open(() => 1000);
    const bump = (c: number | undefined) => (c ?? 0) + 1;
    await Promise.all(Array.from({ length: 25 }, () => s.update("c", "hot", bump)));
    expect(await s.get("c", "hot")).toBe(25);
    await s.close();
  });

  it("an execution lease names its owner, is renewed while held, lapses when not, and is given up on release", async () => {
    let t = 10_000;
    const s = open(() => t);
    // Timers under the test's hand: a renewal runs only when the test fires it.
    const due: (() => void)[] = [];
    const timers = { set: (fn: () => void) => due.push(fn), clear: () => undefined };
    const mine = createExecutionLeases(s, {
      owner: "r1",
      ttlMs: 3_000,
      exclusive: false,
      now: () => t,
      timers,
    });
    const theirs = createExecutionLeases(s, { owner: "r2", ttlMs: 3_000, exclusive: false, now: () => t });
    expect(await theirs.state("x1")).toEqual({ kind: "absent" });
    const hold = await mine.hold("x1");
    expect(await theirs.state("x1")).toEqual({ kind: "live", owner: "r1", expiresAt: 13_000 });
    t = 12_000;
    due.shift()?.();
    // The renewal writes asynchronously; wait for it to land (bounded by expect.poll).
    await expect.poll(() => theirs.state("x1")).toEqual({ kind: "live", owner: "r1", expiresAt: 15_000 });
    // Not renewed past its time (the owner died): expired, still naming the owner.
    t = 15_001;
    expect(await theirs.state("x1")).toEqual({ kind: "expired", owner: "r1", expiresAt: 15_000 });
    const second = await mine.hold("x2");
    await second.release();
    expect((await theirs.state("x2")).kind).toBe("expired");
    await hold.release();
    await s.close();
  });

  it("refuses use after close with a coded error", async () => {
    const s = open(() => 1000);
    await s.close();
    await expect(s.get("n", "k")).rejects.toMatchObject({ code: "STORE_CLOSED" });
  });
});

describe("joinKey", () => {
  it("keeps composite keys unambiguous", () => {
    expect(joinKey("a/b", "c")).not.toBe(joinKey("a", "b/c"));
    expect(joinKey("50%", 1)).toBe("50%25/1");
  });
});
