import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { acquireLease, currentLease, releaseLease, renewLease, stillHolds } from "../../src/store/lease.js";
import { createMemoryStore } from "../../src/store/memory.js";
import { openRedisStore } from "../../src/store/redis.js";
import { openSqliteStore } from "../../src/store/sqlite.js";
import type { Store } from "../../src/store/types.js";
import { type RedisServer, startRedis } from "./redis-server.js";

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

const impls: [string, () => Store][] = [
  ["memory", () => createMemoryStore({ now: () => 0 })],
  [
    "sqlite",
    () => {
      const dir = mkdtempSync(join(tmpdir(), "lease-"));
      dirs.push(dir);
      return openSqliteStore({ dataDir: dir, now: () => 0 });
    },
  ],
  [
    "redis",
    () => openRedisStore({ host: "127.0.0.1", port: redis.port, keyPrefix: `l${++prefixes}:`, now: () => 0 }),
  ],
];

describe.each(impls)("leases on the %s store", (_n, open) => {
  it("one holder at a time; renewal keeps the fence, a takeover after expiry raises it", async () => {
    const s = open();
    const a = await acquireLease(s, "poll/lab-1", "a", 1000, 0);
    expect(a).toMatchObject({ owner: "a", fence: 1, expiresAt: 1000 });
    expect(await acquireLease(s, "poll/lab-1", "b", 1000, 500)).toBeUndefined();
    const renewed = await renewLease(s, a!, 1000, 900);
    expect(renewed).toMatchObject({ owner: "a", fence: 1, expiresAt: 1900 });
    expect(await acquireLease(s, "poll/lab-1", "b", 1000, 1899)).toBeUndefined();
    const b = await acquireLease(s, "poll/lab-1", "b", 1000, 1900);
    expect(b).toMatchObject({ owner: "b", fence: 2 });
    // The old holder wakes up: its renewal fails and its fence no longer holds.
    expect(await renewLease(s, renewed!, 1000, 2000)).toBeUndefined();
    expect(await stillHolds(s, renewed!, 2000)).toBe(false);
    expect(await stillHolds(s, b!, 2000)).toBe(true);
    await s.close();
  });

  it("release frees the lease at once and the next holder gets a higher fence", async () => {
    const s = open();
    const a = (await acquireLease(s, "data-file", "a", 60_000, 0))!;
    await releaseLease(s, a, 10);
    expect(await currentLease(s, "data-file", 10)).toBeUndefined();
    const b = await acquireLease(s, "data-file", "b", 60_000, 10);
    expect(b?.fence).toBe(2);
    // Re-acquiring one's own live lease is a renewal, not a new fence.
    expect((await acquireLease(s, "data-file", "b", 60_000, 20))?.fence).toBe(2);
    await s.close();
  });
});
