import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDurablePendingStore } from "../../src/core/approvals/pending-store-durable.js";
import { selfSignedCertificate } from "../../src/simulator/tls.js";
import { openRedisStore } from "../../src/store/redis.js";
import { connectRedis } from "../../src/store/redis-connection.js";
import { type RedisServer, startRedis } from "./redis-server.js";

/** What only the Redis store has: TTLs on the server, persistence across a restart, failing fast while down. */
let redis: RedisServer;
let raw: Redis;
beforeAll(async () => {
  redis = await startRedis({ persistence: true });
  raw = new Redis({ host: "127.0.0.1", port: redis.port, lazyConnect: true, maxRetriesPerRequest: 0 });
});
afterAll(async () => {
  raw.disconnect();
  await redis.close();
});

/** Resolves when `cond` holds after one of the store's state events (no polling on time). */
function stateChange(events: { up: boolean }[], want: boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (events.at(-1)?.up === want ? resolve() : setImmediate(check));
    check();
  });
}

describe("the Redis store", () => {
  it("connects again when ioredis ends its client without close(), as a cut-short failover reconnect does", async () => {
    const events: { up: boolean; detail: string }[] = [];
    const conn = connectRedis({
      host: "127.0.0.1",
      port: redis.port,
      events: { state: (up, detail) => events.push({ up, detail }) },
    });
    await conn.run("set", () => conn.client.set("end:a", "1"));
    // What ioredis does to a client whose reconnect its failover detector cut short: it ends it, for good.
    const ended = new Promise((resolve) => conn.client.once("end", resolve));
    conn.client.disconnect();
    await ended;
    expect(events.at(-1)?.up).toBe(false);
    await stateChange(events, true);
    expect(conn.health().up).toBe(true);
    expect(await conn.run("get", () => conn.client.get("end:a"))).toBe("1");
    await conn.close();
    expect(conn.health()).toEqual({ up: false, detail: "closed" });
  });

  it("gives every entry with an expiry a server TTL and leaves the others without one", async () => {
    const t = Date.now();
    const s = openRedisStore({ host: "127.0.0.1", port: redis.port, keyPrefix: "ttl:", now: () => t });
    await s.write([
      { op: "put", ns: "n", key: "short", value: 1, expiresAt: t + 10_000 },
      { op: "put", ns: "n", key: "forever", value: 2 },
    ]);
    await raw.connect().catch(() => undefined);
    const short = await raw.pttl("ttl:e:n:short");
    // Remaining time plus the grace for clock skew between hosts.
    expect(short).toBeGreaterThan(10_000);
    expect(short).toBeLessThanOrEqual(70_000);
    expect(await raw.pttl("ttl:e:n:forever")).toBe(-1);
    // A renewal of the expiry moves the TTL too.
    await s.update("n", "short", (v: number | undefined) => (v ?? 0) + 1, { expiresAt: t + 100_000 });
    expect(await raw.pttl("ttl:e:n:short")).toBeGreaterThan(100_000);
    await s.close();
  });

  it("fails fast with a clear message while Redis is down, recovers when it returns, and keeps what was written", async () => {
    const events: { up: boolean; detail: string }[] = [];
    const errors: string[] = [];
    const s = openRedisStore({
      host: "127.0.0.1",
      port: redis.port,
      keyPrefix: "down:",
      events: { state: (up, detail) => events.push({ up, detail }), error: (op) => errors.push(op) },
    });
    const pending = createDurablePendingStore(s);
    const at = Date.now();
    await pending.create({
      id: "req-1",
      kind: "request",
      status: "pending",
      commandId: "fs.eradicate",
      args: { name: "x" },
      commandText: "fs eradicate x",
      requester: { userId: "U1" },
      channelId: "C1",
      array: "a",
      requestId: "r1",
      policy: "approve",
      approvalsRequired: 1,
      approverRole: "operator",
      approvals: [],
      fingerprint: "f",
      state: {},
      display: { title: "t", summary: "s", facts: [], warnings: [], requests: [] },
      createdAt: at,
      expiresAt: at + 900_000,
      updatedAt: at,
      messages: [],
    });
    expect(s.health().up).toBe(true);

    await redis.kill();
    await stateChange(events, false);
    expect(s.health().up).toBe(false);
    const err = await pending.claim("req-1", "pending").catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "STORE_UNAVAILABLE", userFacing: true });
    expect((err as Error).message).toMatch(/Paused.*unreachable.*Nothing was changed/);
    expect(errors).toContain("update");

    await redis.start();
    await stateChange(events, true);
    // The record survived SIGKILL (append-only file, fsync always) and the claim that failed changed nothing.
    const claimed = await pending.claim("req-1", "pending");
    expect(claimed?.status).toBe("claimed");
    expect(await pending.claim("req-1", "pending")).toBeUndefined();
    await s.close();
  });
});

describe("the Redis store when Redis hangs (SIGSTOP: connection open, no answers)", () => {
  it("a missed PING marks it down, calls then fail at once, and the first answer marks it up again", async () => {
    const events: { up: boolean; detail: string }[] = [];
    const s = openRedisStore({
      host: "127.0.0.1",
      port: redis.port,
      keyPrefix: "hang:",
      commandTimeoutMs: 5_000,
      healthCheck: { intervalMs: 100, timeoutMs: 300 },
      events: { state: (up, detail) => events.push({ up, detail }) },
    });
    await s.write([{ op: "put", ns: "n", key: "k", value: 1 }]);
    expect(s.health().up).toBe(true);
    redis.pause();
    try {
      await stateChange(events, false);
      expect(events.at(-1)?.detail).toMatch(/did not answer PING within 300 ms/);
      expect(s.health()).toMatchObject({ up: false });
      // Down: refused at once with the paused message, not after the 5 s command timeout.
      const started = process.hrtime.bigint();
      await expect(s.get("n", "k")).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
      expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(1_000);
    } finally {
      redis.resume();
    }
    await stateChange(events, true);
    expect(s.health().up).toBe(true);
    expect(await s.get("n", "k")).toBe(1);
    await s.close();
  });

  it("a command that times out marks it down at once, before any PING is due", async () => {
    const events: { up: boolean; detail: string }[] = [];
    const s = openRedisStore({
      host: "127.0.0.1",
      port: redis.port,
      keyPrefix: "hang2:",
      commandTimeoutMs: 300,
      // No PING for a minute: only the command timeout can have marked it.
      healthCheck: { intervalMs: 60_000, timeoutMs: 60_000 },
      events: { state: (up, detail) => events.push({ up, detail }) },
    });
    await s.write([{ op: "put", ns: "n", key: "k", value: 2 }]);
    redis.pause();
    try {
      await expect(s.get("n", "k")).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
      expect(s.health().up).toBe(false);
      expect(events.at(-1)).toMatchObject({ up: false, detail: expect.stringMatching(/timed out/) });
    } finally {
      redis.resume();
    }
    // The PING sent when the command timed out (or the next) is answered: up again.
    await stateChange(events, true);
    expect(await s.get("n", "k")).toBe(2);
    await s.close();
  });
});

describe("the Redis store with an ACL user", () => {
  it("connects with username and password, and a wrong password is a clear unavailable error", async () => {
    const secured = await startRedis({
      // The least the store needs (as the README's ACL line says): its key prefix and these categories.
      args: [
        "--user",
        "default",
        "off",
        "--user",
        "bot",
        "on",
        ">s3cret-pw",
        "~array-chatops:*",
        "+@read",
        "+@write",
        "+@scripting",
        "+@connection",
        "+info",
      ],
    });
    try {
      const ok = openRedisStore({
        host: "127.0.0.1",
        port: secured.port,
        username: "bot",
        password: "s3cret-pw",
      });
      await ok.write([{ op: "put", ns: "n", key: "k", value: 1, expiresAt: Date.now() + 60_000 }]);
      expect(await ok.get("n", "k")).toBe(1);
      expect(await ok.update("n", "k", (v: number | undefined) => (v ?? 0) + 1)).toBe(2);
      expect((await ok.list("n")).map((e) => e.value)).toEqual([2]);
      expect(await ok.take("n", "k")).toBe(2);
      expect(await ok.sweepExpired()).toBe(0);
      await ok.close();
      const wrong = openRedisStore({
        host: "127.0.0.1",
        port: secured.port,
        username: "bot",
        password: "nope",
        connectTimeoutMs: 1_000,
      });
      const err = await wrong.get("n", "k").catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "STORE_UNAVAILABLE" });
      expect(String((err as Error).message)).not.toContain("nope");
      expect(wrong.health()).toMatchObject({ up: false });
      await wrong.close();
    } finally {
      await secured.close();
    }
  });
});

describe("the Redis store over TLS", () => {
  it("verifies the server against the configured CA, and refuses one it cannot verify", async () => {
    const tls = await selfSignedCertificate();
    const server = await startRedis({ tls });
    const dir = mkdtempSync(join(tmpdir(), "redis-ca-"));
    try {
      writeFileSync(join(dir, "ca.pem"), tls.cert);
      const ok = openRedisStore({
        host: "127.0.0.1",
        port: server.port,
        tls: { caFile: join(dir, "ca.pem") },
      });
      await ok.write([{ op: "put", ns: "n", key: "k", value: "over tls" }]);
      expect(await ok.get("n", "k")).toBe("over tls");
      await ok.close();
      // Without the CA the self-signed certificate is not trusted: unavailable, never silently insecure.
      const untrusted = openRedisStore({
        host: "127.0.0.1",
        port: server.port,
        tls: {},
        connectTimeoutMs: 1_000,
      });
      await expect(untrusted.get("n", "k")).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
      expect(untrusted.health().detail).toMatch(/certificate/i);
      await untrusted.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await server.close();
    }
  });
});
