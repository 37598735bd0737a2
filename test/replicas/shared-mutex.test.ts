import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SharedMutex } from "../../src/alerts/shared-mutex.js";
import { openRedisStore } from "../../src/store/redis.js";
import type { Store } from "../../src/store/types.js";
import { type RedisServer, startRedis } from "../store/redis-server.js";

let redis: RedisServer;
const stores: Store[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const s of stores) await s.close();
  await redis.close();
});

const open = () => {
  const s = openRedisStore({ host: "127.0.0.1", port: redis.port, keyPrefix: "mutex:" });
  stores.push(s);
  return s;
};

describe("the alert engine's lock across replicas", () => {
  it("serialises read-then-write sections of three replicas, so none overwrites another's change", async () => {
    const replicas = ["a", "b", "c"].map((name) => ({
      store: open(),
      lock: new SharedMutex(open(), name, Date.now),
    }));
    // A plain get then write: without the lock, concurrent sections would lose increments.
    const section = async (store: Store) => {
      const n = (await store.get<number>("alerts.card", "counter")) ?? 0;
      await store.write([{ op: "put", ns: "alerts.card", key: "counter", value: n + 1 }]);
    };
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const r = replicas[i % 3] as (typeof replicas)[number];
        return r.lock.run(() => section(r.store));
      }),
    );
    expect(await replicas[0]?.store.get("alerts.card", "counter")).toBe(30);
    // Released after every section: nothing left behind.
    expect(await replicas[0]?.store.get("alerts.lock", "engine")).toBeUndefined();
  });
});
