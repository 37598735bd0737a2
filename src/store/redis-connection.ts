/**
 * The connection to Redis and what the store knows of it: connected to a writable primary, hung (the health
 * probe), a read-only replica, or down. Calls go through `run`, which refuses at once while the connection is not
 * ready and counts outages (never answers such as a fenced write). With sentinels, ioredis asks them for the
 * primary and follows a failover; with an address, a node demoted to replica behind it reads as down (READONLY),
 * never as ready.
 */
import { readFileSync } from "node:fs";
import { Redis, type RedisOptions } from "ioredis";
import { BotError, InternalError, UserFacingError } from "../errors.js";
import type { RedisStoreOptions } from "./redis.js";
import { startPingMonitor } from "./redis-health.js";
import { WRITE_SCRIPT } from "./redis-scripts.js";

export interface RedisConnection {
  client: Redis;
  /** The fenced, revision-checked write script (redis-scripts.ts). */
  acWrite(...args: (string | number)[]): Promise<string>;
  /** Runs `fn` once the connection is ready; an outage throws STORE_UNAVAILABLE (user-facing) and is counted. */
  run<T>(op: string, fn: () => Promise<T>): Promise<T>;
  /** Resolves once enough replicas hold every write made so far on this connection (`WAIT`); throws otherwise. */
  acknowledged(): Promise<void>;
  health(): { up: boolean; detail: string };
  close(): Promise<void>;
}

/** ioredis options: fail fast, never resend a write whose answer was lost, keepalive, TLS as configured. */
function connectionOptions(opts: RedisStoreOptions): RedisOptions {
  const ro: RedisOptions = {
    ...(opts.sentinels
      ? {
          sentinels: opts.sentinels,
          name: opts.sentinelName ?? "mymaster",
          role: "master" as const,
          // Sentinels announce a promotion (+switch-master): reconnect to the new primary at once.
          failoverDetector: true,
          ...(opts.sentinelPassword === undefined ? {} : { sentinelPassword: opts.sentinelPassword }),
        }
      : { host: opts.host, port: opts.port }),
    db: opts.db ?? 0,
    lazyConnect: false,
    // Calls made while disconnected fail at once (see `ready` below) rather than waiting in a queue.
    maxRetriesPerRequest: 0,
    commandTimeout: opts.commandTimeoutMs ?? 2_000,
    connectTimeout: opts.connectTimeoutMs ?? 5_000,
    retryStrategy: (times) => Math.min(times * 100, 1_000),
    // Never resend a write whose answer was lost: the script may have run, and sending it again is not safe.
    autoResendUnfulfilledCommands: false,
    // TCP keepalive lets the kernel notice a peer that vanished (node lost, silent partition) on an idle socket.
    keepAlive: 10_000,
    // A primary demoted under us answers writes READONLY: reconnect (with sentinels, to the new primary) but never
    // resend the write (1, not 2).
    reconnectOnError: (err) => (READONLY.test(err.message) ? 1 : false),
  };
  if (opts.username !== undefined) ro.username = opts.username;
  if (opts.password !== undefined) ro.password = opts.password;
  if (opts.tls) {
    ro.tls = {
      rejectUnauthorized: opts.tls.insecure !== true,
      ...(opts.tls.caFile ? { ca: readFileSync(opts.tls.caFile) } : {}),
      ...(opts.tls.servername ? { servername: opts.tls.servername } : {}),
    };
    if (opts.sentinels) {
      ro.enableTLSForSentinelMode = true;
      ro.sentinelTLS = ro.tls;
    }
  }
  return ro;
}

const READONLY = /^READONLY\b/;
/** How soon a client ioredis ended without close() connects again (the "end" listener in connectRedis). */
const RESTART_AFTER_MS = 250;

/** What a command or click that needs the shared store is told while it has no writable primary. */
export function storeUnavailableError(cause?: unknown): UserFacingError {
  return new UserFacingError(
    "STORE_UNAVAILABLE",
    "Paused: the bot's shared state store (Redis) is unreachable, so approvals and alert posts wait. Nothing was changed; read-only commands still work. Try again in a moment.",
    cause === undefined ? {} : { cause },
  );
}

/** `role` and `connected_slaves` from INFO replication. */
function replication(info: string): { role: string; replicas: number } {
  const role = /^role:(\w+)/m.exec(info)?.[1] ?? "unknown";
  const replicas = Number(/^connected_slaves:(\d+)/m.exec(info)?.[1] ?? 0);
  return { role, replicas };
}

export function connectRedis(opts: RedisStoreOptions): RedisConnection {
  const client = new Redis(connectionOptions(opts));
  client.defineCommand("acWrite", { lua: WRITE_SCRIPT });
  const acWrite = (
    client as unknown as { acWrite(...args: (string | number)[]): Promise<string> }
  ).acWrite.bind(client);

  let closed = false;
  let up = false;
  let toldNeverUp = false;
  let lastError = "connecting";
  const setUp = (next: boolean, detail: string) => {
    lastError = detail;
    if (next === up) return;
    up = next;
    opts.events?.state?.(next, detail);
  };
  /** Replicas attached to the primary, from the last probe; undefined until one answered. */
  let replicas: number | undefined;
  // The probe is INFO replication rather than a PING: it answers the same way, and also says whether this is
  // still a writable primary and how many replicas can acknowledge writes.
  const probe = async () => {
    const r = replication(await client.info("replication"));
    if (r.role !== "master")
      throw new Error(`connected to a read-only replica (role ${r.role}), not the primary`);
    replicas = r.replicas;
  };
  // A hang keeps the connection open: the PING monitor sees it, and a command timeout reports it at once.
  const pings = startPingMonitor({
    ping: probe,
    connected: () => !closed && client.status === "ready",
    intervalMs: opts.healthCheck?.intervalMs ?? 1_000,
    timeoutMs: opts.healthCheck?.timeoutMs ?? 1_000,
    ...(opts.healthCheck?.timers ? { timers: opts.healthCheck.timers } : {}),
    verdict: (ok, detail) => setUp(ok && client.status === "ready", detail),
  });
  client.on("ready", () => {
    toldNeverUp = true;
    pings.reset();
    setUp(true, "ready");
  });
  client.on("error", (err: Error) => {
    lastError = err.message;
    // Never connected yet (wrong address or password): say so once, rather than wait for a change of state.
    if (!up && !toldNeverUp) {
      toldNeverUp = true;
      opts.events?.state?.(false, err.message);
    }
  });
  for (const ev of ["close", "reconnecting", "end"]) {
    client.on(ev, () => setUp(false, lastError === "ready" ? `connection ${ev}` : lastError));
  }
  // ioredis ends a client for good when its connector's connect is cut short: its failover detector disconnects
  // on +switch-master, and a reconnect then asking the sentinels fails "Connection is closed." and is never tried
  // again. After a primary was killed, 11 of 12 connections stayed down that way in one of ten rounds, and a bot
  // replica stayed out of the rotation (test/replicas/sentinel-failover.test.ts). Only close() ends the client:
  // one that ends otherwise connects again.
  let restart: NodeJS.Timeout | undefined;
  client.on("end", () => {
    if (closed || restart !== undefined) return;
    restart = setTimeout(() => {
      restart = undefined;
      if (!closed && client.status === "end") client.connect().catch(() => undefined);
    }, RESTART_AFTER_MS);
    restart.unref();
  });
  const firstReady = new Promise<void>((resolve) => client.once("ready", () => resolve()));
  firstReady.catch(() => undefined);
  // The first attempt's failure (refused, unknown host, wrong password) answers a caller waiting to connect at
  // once: a start-up with Redis down says so without waiting out the connect timeout.
  const firstFailure = new Promise<void>((resolve) => client.once("error", () => resolve()));

  const unavailable = storeUnavailableError;

  /** Waits for the first connection (bounded), then refuses at once whenever the connection is not ready. */
  async function ready(): Promise<void> {
    if (closed) throw new InternalError("STORE_CLOSED", "the store was used after close()");
    // Hung: fail at once rather than make every caller wait out the command timeout.
    if (pings.hung) throw unavailable();
    const isReady = () => client.status === "ready";
    if (isReady()) return;
    if (!up && lastError === "connecting") {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((r) => {
        timer = setTimeout(r, opts.connectTimeoutMs ?? 5_000);
      });
      await Promise.race([firstReady, firstFailure, timeout]);
      clearTimeout(timer);
      if (isReady()) return;
    }
    throw unavailable();
  }

  async function run<T>(op: string, fn: () => Promise<T>): Promise<T> {
    try {
      await ready();
      return await fn();
    } catch (err) {
      // Fenced writes, contention and misuse are answers, not store failures: only outages are counted.
      if (err instanceof BotError && err.code !== "STORE_UNAVAILABLE") throw err;
      if (err instanceof Error && /timed out/i.test(err.message)) pings.markHung(`${op}: ${err.message}`);
      if (err instanceof Error && READONLY.test(err.message)) pings.markHung(`${op}: ${err.message}`);
      opts.events?.error?.(op, err);
      throw err instanceof BotError ? err : unavailable(err);
    }
  }

  async function acknowledged(): Promise<void> {
    if (replicas === undefined && opts.minReplicasAcked === undefined) await probe();
    const required = opts.minReplicasAcked ?? Math.min(1, replicas ?? 0);
    if (required <= 0) return;
    const acked = Number(await client.wait(required, opts.replicaAckTimeoutMs ?? 500));
    if (acked < required)
      throw new UserFacingError(
        "STORE_UNAVAILABLE",
        `Paused: the bot's shared state store (Redis) did not confirm this on ${required} replica${required === 1 ? "" : "s"} in time (acknowledged by ${acked}), so it was not acted on. Nothing was sent to the array; try again in a moment.`,
        { details: { acked, required } },
      );
  }

  return {
    client,
    acWrite,
    run,
    acknowledged,
    health: () => ({
      up: !closed && up && !pings.hung && client.status === "ready",
      detail: closed ? "closed" : lastError,
    }),
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      pings.stop();
      clearTimeout(restart);
      try {
        await client.quit();
      } catch {
        client.disconnect();
      }
    },
  };
}
