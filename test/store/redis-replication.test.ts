/**
 * The Redis store against replication (issue 44), on real redis-server processes: a node that is a read-only
 * replica is not a ready store (a failed-over primary back at the same address), and a write is done only once
 * the replicas it asks for acknowledge it (WAIT); one they do not acknowledge in time is refused as not granted.
 */
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRedisStore } from "../../src/store/redis.js";
import { until } from "../replicas/sentinel-group.js";
import { type RedisServer, startRedis } from "./redis-server.js";

let primary: RedisServer;
let replica: RedisServer;

beforeAll(async () => {
  primary = await startRedis();
  replica = await startRedis({ args: ["--replicaof", "127.0.0.1", String(primary.port)] });
  const admin = new Redis({ host: "127.0.0.1", port: primary.port });
  try {
    await until(
      "the replica in sync",
      async () => /slave0:.*state=online/.test(await admin.info("replication")),
      20_000,
    );
  } finally {
    admin.disconnect();
  }
});

afterAll(async () => {
  await replica?.close();
  await primary?.close();
});

const FAST = { intervalMs: 100, timeoutMs: 500 };

describe("the Redis store and replication", () => {
  it("on a read-only replica it is not up, says why, and refuses writes as unavailable", async () => {
    const s = openRedisStore({ host: "127.0.0.1", port: replica.port, healthCheck: FAST });
    try {
      // Connected and answering, but no primary: the health probe's INFO says so before any write is tried.
      await until(
        "the store reports the replica",
        async () => /read-only replica/.test(s.health().detail),
        5_000,
      );
      expect(s.health().up).toBe(false);
      const err = await s.write([{ op: "put", ns: "n", key: "k", value: 1 }]).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "STORE_UNAVAILABLE", userFacing: true });
    } finally {
      await s.close();
    }
  });

  it("a write is done once a replica holds it; asking for more replicas than exist is refused", async () => {
    // A generous wait for the one replica: on a loaded machine its acknowledgement can take longer than the
    // default half second, and this checks what a write waits for, not how fast.
    const one = openRedisStore({
      host: "127.0.0.1",
      port: primary.port,
      healthCheck: FAST,
      replicaAckTimeoutMs: 10_000,
    });
    const two = openRedisStore({
      host: "127.0.0.1",
      port: primary.port,
      healthCheck: FAST,
      minReplicasAcked: 2,
      replicaAckTimeoutMs: 100,
    });
    try {
      // The default asks the one replica there is: once the write returns, the replica has it.
      await one.write([{ op: "put", ns: "n", key: "acked", value: 7 }]);
      const onReplica = openRedisStore({ host: "127.0.0.1", port: replica.port, healthCheck: FAST });
      expect(await onReplica.get("n", "acked")).toBe(7);
      await onReplica.close();
      const err = await two.update("n", "claim", () => ({ claimedBy: "r1" })).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "STORE_UNAVAILABLE", details: { acked: 1, required: 2 } });
      expect(String((err as Error).message)).toContain("so it was not acted on");
    } finally {
      await one.close();
      await two.close();
    }
  });
});
