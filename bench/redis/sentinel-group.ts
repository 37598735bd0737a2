/**
 * Redis the way teams run it: a primary, a replica and three `redis-sentinel` processes (quorum 2) on loopback,
 * each waited for by what it reports (the replica in sync, every sentinel knowing the replica and the two other
 * sentinels), never by time. Sentinels judge a primary down after 1 s, so a failover takes a few seconds.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { dieWithThisProcess, freePort, type RedisServer, readyWhen, startRedis } from "./redis-server.js";

export const MASTER_NAME = "bot-primary";

export interface SentinelGroup {
  primary: RedisServer;
  replica: RedisServer;
  /** Sentinel addresses, as the configuration lists them. */
  sentinels: string[];
  /** The port of the primary the sentinels name now. */
  currentPrimaryPort(): Promise<number>;
  /** Waits until the server on `port` is a replica in sync with the current primary. */
  inSync(port: number): Promise<void>;
  close(): Promise<void>;
}

/** A short-lived admin connection; its connection errors are the probe's answer, not an unhandled event. */
function adminClient(port: number): Redis {
  const c = new Redis({ port, host: "127.0.0.1", lazyConnect: true, maxRetriesPerRequest: 0 });
  c.on("error", () => undefined);
  return c;
}

/** Polls `probe` until true; fails after `withinMs` (a bound, not a synchronisation sleep). */
export async function until(what: string, probe: () => Promise<boolean>, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A sentinel on a free port. The port is free when asked but not held: a parallel test can take it before the
 * sentinel binds it, which the sentinel reports as "Address already in use" and exits. Then it is tried again on
 * another port (a few times), rather than failing the test that asked for it.
 */
async function startSentinel(
  dir: string,
  primaryPort: number,
): Promise<{ port: number; child: ChildProcess }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startSentinelOn(await freePort(), dir, primaryPort);
    } catch (err) {
      if (attempt >= 5 || !String(err).includes("Address already in use")) throw err;
    }
  }
}

async function startSentinelOn(
  port: number,
  dir: string,
  primaryPort: number,
): Promise<{ port: number; child: ChildProcess }> {
  const conf = join(dir, `sentinel-${port}.conf`);
  writeFileSync(
    conf,
    [
      `port ${port}`,
      "bind 127.0.0.1",
      `dir ${dir}`,
      `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${primaryPort} 2`,
      `sentinel down-after-milliseconds ${MASTER_NAME} 1000`,
      // A split vote is retried after twice this: short, so a loaded machine still fails over in seconds.
      `sentinel failover-timeout ${MASTER_NAME} 3000`,
      `sentinel parallel-syncs ${MASTER_NAME} 1`,
      "",
    ].join("\n"),
  );
  const child = dieWithThisProcess(
    spawn(process.env.REDIS_SENTINEL ?? "redis-sentinel", [conf], {
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  await readyWhen(child, "+monitor master", "redis-sentinel");
  return { port, child };
}

export async function startSentinelGroup(): Promise<SentinelGroup> {
  const primary = await startRedis();
  const replica = await startRedis({ args: ["--replicaof", "127.0.0.1", String(primary.port)] });
  const dir = mkdtempSync(join(tmpdir(), "sentinels-"));
  const sentinels: { port: number; child: ChildProcess }[] = [];
  const admin = new Redis({
    port: primary.port,
    host: "127.0.0.1",
    lazyConnect: true,
    maxRetriesPerRequest: 0,
  });
  try {
    await until(
      "the replica in sync",
      async () => /slave0:.*state=online/.test(await admin.info("replication")),
      20_000,
    );
    for (let i = 0; i < 3; i++) sentinels.push(await startSentinel(dir, primary.port));
    // Each sentinel must know the replica and its two peers before a failover can be agreed.
    for (const s of sentinels) {
      const c = adminClient(s.port);
      try {
        await until(
          `sentinel ${s.port} sees the replica and two peers`,
          async () => {
            const flat = (await c.call("SENTINEL", "MASTER", MASTER_NAME)) as string[];
            const f = new Map<string, string>();
            for (let i = 0; i + 1 < flat.length; i += 2) f.set(String(flat[i]), String(flat[i + 1]));
            return f.get("num-slaves") === "1" && f.get("num-other-sentinels") === "2";
          },
          20_000,
        );
      } finally {
        c.disconnect();
      }
    }
  } finally {
    admin.disconnect();
  }
  const first = sentinels[0]?.port ?? 0;
  return {
    primary,
    replica,
    sentinels: sentinels.map((s) => `127.0.0.1:${s.port}`),
    async currentPrimaryPort() {
      const c = adminClient(first);
      try {
        const [, port] = (await c.call("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME)) as [
          string,
          string,
        ];
        return Number(port);
      } finally {
        c.disconnect();
      }
    },
    async inSync(port) {
      const c = adminClient(port);
      try {
        await until(
          `${port} a replica in sync`,
          async () => {
            const info = await c.info("replication");
            return /^role:slave/m.test(info) && /^master_link_status:up/m.test(info);
          },
          30_000,
        );
      } finally {
        c.disconnect();
      }
    },
    async close() {
      for (const s of sentinels) {
        if (s.child.exitCode === null && s.child.signalCode === null) {
          const exited = new Promise((r) => s.child.once("exit", r));
          s.child.kill("SIGKILL");
          await exited;
        }
      }
      primary.resume();
      replica.resume();
      await primary.close();
      await replica.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
