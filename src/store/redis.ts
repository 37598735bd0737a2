/**
 * The store on Redis, shared by every replica of the bot. Same semantics as the SQLite store (JSON copies,
 * all-or-nothing batches, atomic read-modify-write, expiry by the injected clock), so the same contract tests
 * run against both.
 *
 * Layout under the key prefix: `e:<ns>:<key>` is a hash {v: JSON, r: revision, e: expiresAt}; `i:<ns>` is a
 * sorted set of the namespace's keys (all score 0, so ZRANGEBYLEX lists them in byte order, like SQLite);
 * `ns` is the set of namespaces (for the sweep). Entries with an expiry also get a Redis TTL of the remaining
 * time plus a grace period: reads filter by the bot's clock, and Redis reclaims the space on its own even if
 * no replica ever sweeps. `update` is optimistic: read with the revision, run `fn`, write back only if the
 * revision is unchanged (a server-side script), else read again.
 *
 * Failing fast matters more than queueing: while Redis is unreachable every call throws STORE_UNAVAILABLE at
 * once (a user-facing message), so approvals and alert posts pause visibly instead of hanging, and nothing is
 * half-applied because every write is one script.
 */
import { randomUUID } from "node:crypto";
import { InternalError } from "../errors.js";
import { LEASE_NS } from "./lease.js";
import { serialise } from "./memory.js";
import { connectRedis } from "./redis-connection.js";
import type { PingTimers } from "./redis-health.js";
import type { ListOptions, Store, StoreEntry, StoreOp, WriteGuard } from "./types.js";

export interface RedisStoreOptions {
  /** The server, when it is given by address (ignored with `sentinels`). */
  host: string;
  port: number;
  /**
   * Sentinels to ask for the current primary of `sentinelName`: ioredis connects to whichever they name, checks
   * it is a primary, and follows a failover (+switch-master) to the promoted replica.
   */
  sentinels?: { host: string; port: number }[];
  sentinelName?: string;
  sentinelPassword?: string;
  /**
   * Replicas that must acknowledge every write (`WAIT`) before the store reports it done; undefined = 1 when the
   * primary has replicas, else 0. A write not acknowledged in time throws STORE_UNAVAILABLE: not granted.
   */
  minReplicasAcked?: number;
  /** How long a write waits for those acknowledgements. Default 500 ms. */
  replicaAckTimeoutMs?: number;
  db?: number;
  username?: string;
  password?: string;
  /** TLS on; `caFile` for a private CA, `insecure` skips verification (logged by the caller). */
  tls?: { caFile?: string; insecure?: boolean; servername?: string };
  /** Every key starts with this, so several bots (or other apps) can share one Redis. */
  keyPrefix?: string;
  now?: () => number;
  /** A command that gets no answer within this fails (the store counts as down). Default 2 s. */
  commandTimeoutMs?: number;
  /** How long the first connection may take before calls fail as unavailable. Default 5 s. */
  connectTimeoutMs?: number;
  /**
   * A PING every `intervalMs` (default 1 s) that must be answered within `timeoutMs` (default 1 s), so a Redis
   * that hangs with its connection open (SIGSTOP, a silent partition) counts as down; `timers` for tests.
   */
  healthCheck?: { intervalMs?: number; timeoutMs?: number; timers?: PingTimers };
  /** Hears every failed call and every change between up and down (metrics, logs). */
  events?: RedisStoreEvents;
}

export interface RedisStoreEvents {
  error?(op: string, err: unknown): void;
  state?(up: boolean, detail: string): void;
}

export interface RedisStore extends Store {
  readonly kind: "redis";
  /** Up when the connection is ready; `detail` says why not. */
  health(): { up: boolean; detail: string };
}

export const DEFAULT_KEY_PREFIX = "array-chatops:";
/** Redis keeps an expired entry this much longer than the bot's clock says, covering clock skew between hosts. */
const TTL_GRACE_MS = 60_000;
const MAX_CAS_ATTEMPTS = 200;
const SCAN_CHUNK = 200;
const NS_PATTERN = /^[A-Za-z0-9._-]+$/;

type Hm = [string | null, string | null, string | null];

export function openRedisStore(opts: RedisStoreOptions): RedisStore {
  const now = opts.now ?? Date.now;
  const p = opts.keyPrefix ?? DEFAULT_KEY_PREFIX;
  const { client, acWrite, run, health, close, acknowledged } = connectRedis(opts);

  const checkNs = (ns: string) => {
    if (!NS_PATTERN.test(ns)) throw new InternalError("STORE_BAD_NS", `bad store namespace "${ns}"`);
  };
  const ek = (ns: string, key: string) => `${p}e:${ns}:${key}`;
  const ik = (ns: string) => `${p}i:${ns}`;
  const live = (e: string | null, at: number) => e === null || Number(e) > at;

  interface ScriptOp {
    kind: "put" | "del";
    ns: string;
    key: string;
    expect: string;
    json?: string;
    expiresAt?: number;
  }

  /** Runs the write script; returns false on a revision conflict, throws STORE_FENCED when the guard fails. */
  async function script(ops: readonly ScriptOp[], guard: WriteGuard | undefined): Promise<boolean> {
    const at = now();
    const keys: string[] = [`${p}ns`, guard ? ek(LEASE_NS, guard.lease) : `${p}ns`];
    const args: (string | number)[] = [at, guard?.owner ?? "", guard?.fence ?? 0, ops.length, randomUUID()];
    for (const o of ops) {
      checkNs(o.ns);
      keys.push(ek(o.ns, o.key), ik(o.ns));
      const ttl = o.expiresAt === undefined ? "" : Math.max(1, o.expiresAt - at + TTL_GRACE_MS);
      args.push(o.kind, o.key, o.expect, o.json ?? "", o.expiresAt ?? "", ttl, o.ns);
    }
    const res = await acWrite(keys.length, ...keys, ...args);
    if (res === "fenced") {
      throw new InternalError("STORE_FENCED", `lease ${guard?.lease} is no longer held by ${guard?.owner}`);
    }
    // A write the replicas have not taken could vanish in a failover (an approval claimed twice): it is done only
    // once they acknowledge it (docs/replicas.md).
    if (res === "ok") await acknowledged();
    return res === "ok";
  }

  async function read(ns: string, key: string): Promise<Hm> {
    checkNs(ns);
    return (await client.hmget(ek(ns, key), "v", "e", "r")) as Hm;
  }

  return {
    kind: "redis",
    health,
    get<T>(ns: string, key: string): Promise<T | undefined> {
      return run("read", async () => {
        const [v, e] = await read(ns, key);
        return v !== null && live(e, now()) ? (JSON.parse(v) as T) : undefined;
      });
    },
    getMany<T>(ns: string, keys: readonly string[]): Promise<Map<string, T>> {
      return run("read", async () => {
        checkNs(ns);
        const out = new Map<string, T>();
        if (keys.length === 0) return out;
        const pipe = client.pipeline();
        for (const k of keys) pipe.hmget(ek(ns, k), "v", "e");
        const res = (await pipe.exec()) ?? [];
        const at = now();
        keys.forEach((k, i) => {
          const [err, row] = res[i] ?? [null, null];
          if (err) throw err;
          const [v, e] = (row ?? [null, null]) as Hm;
          if (v !== null && live(e, at)) out.set(k, JSON.parse(v) as T);
        });
        return out;
      });
    },
    list<T>(ns: string, o: ListOptions = {}): Promise<StoreEntry<T>[]> {
      return run("list", async () => {
        checkNs(ns);
        const prefix = Buffer.from(o.prefix ?? "", "utf8");
        // No valid UTF-8 string contains byte 0xFF, so "(prefix\xFF" bounds every key that starts with prefix.
        const min = o.prefix ? Buffer.concat([Buffer.from("["), prefix]) : "-";
        const max = o.prefix ? Buffer.concat([Buffer.from("("), prefix, Buffer.from([0xff])]) : "+";
        const out: StoreEntry<T>[] = [];
        const at = now();
        for (let offset = 0; ; offset += SCAN_CHUNK) {
          const members = await client.zrangebylex(ik(ns), min, max, "LIMIT", offset, SCAN_CHUNK);
          if (members.length === 0) return out;
          const pipe = client.pipeline();
          for (const m of members) pipe.hmget(ek(ns, m), "v", "e");
          const rows = (await pipe.exec()) ?? [];
          for (let i = 0; i < members.length; i++) {
            if (o.limit !== undefined && out.length >= o.limit) return out;
            const [v, e] = (rows[i]?.[1] ?? [null, null]) as Hm;
            if (v === null || !live(e, at)) continue;
            const entry: StoreEntry<T> = { key: members[i] as string, value: JSON.parse(v) as T };
            if (e !== null) entry.expiresAt = Number(e);
            out.push(entry);
          }
          if (o.limit !== undefined && out.length >= o.limit) return out;
          if (members.length < SCAN_CHUNK) return out;
        }
      });
    },
    async write(ops: readonly StoreOp[], wo: { guard?: WriteGuard } = {}): Promise<void> {
      if (ops.length === 0) return;
      // Serialise first so a bad value fails the batch before anything is sent.
      const prepared: ScriptOp[] = ops.map((op) =>
        op.op === "delete"
          ? { kind: "del", ns: op.ns, key: op.key, expect: "*" }
          : {
              kind: "put",
              ns: op.ns,
              key: op.key,
              expect: "*",
              json: serialise(op.value),
              ...(op.expiresAt === undefined ? {} : { expiresAt: op.expiresAt }),
            },
      );
      await run("write", () => script(prepared, wo.guard));
    },
    update<T>(
      ns: string,
      key: string,
      fn: (current: T | undefined) => T | undefined,
      o: { expiresAt?: number; guard?: WriteGuard } = {},
    ): Promise<T | undefined> {
      return run("update", async () => {
        for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
          const [v, e, r] = await read(ns, key);
          const isLive = v !== null && live(e, now());
          const next = fn(isLive ? (JSON.parse(v) as T) : undefined);
          const expect = r ?? "";
          if (next === undefined) {
            if (r === null && !o.guard) return undefined;
            if (await script([{ kind: "del", ns, key, expect }], o.guard)) return undefined;
            continue;
          }
          const json = serialise(next);
          const expiresAt = o.expiresAt ?? (isLive && e !== null ? Number(e) : undefined);
          const op: ScriptOp = { kind: "put", ns, key, expect, json };
          if (expiresAt !== undefined) op.expiresAt = expiresAt;
          if (await script([op], o.guard)) return JSON.parse(json) as T;
        }
        throw new InternalError("STORE_CONTENDED", `update of ${ns}/${key} kept conflicting; gave up`);
      });
    },
    take<T>(ns: string, key: string): Promise<T | undefined> {
      return run("take", async () => {
        for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
          const [v, e, r] = await read(ns, key);
          if (r === null || v === null) return undefined;
          if (await script([{ kind: "del", ns, key, expect: r }], undefined)) {
            return live(e, now()) ? (JSON.parse(v) as T) : undefined;
          }
        }
        throw new InternalError("STORE_CONTENDED", `take of ${ns}/${key} kept conflicting; gave up`);
      });
    },
    sweepExpired(): Promise<number> {
      return run("sweep", async () => {
        let n = 0;
        const at = now();
        for (const ns of await client.smembers(`${p}ns`)) {
          if (!NS_PATTERN.test(ns)) continue;
          let cursor = "0";
          do {
            const [next, flat] = await client.zscan(ik(ns), cursor, "COUNT", SCAN_CHUNK);
            cursor = next;
            const members = flat.filter((_, i) => i % 2 === 0);
            for (const m of members) {
              const [v, e, r] = await read(ns, m);
              if (v === null || r === null) {
                // Redis's own TTL reclaimed the entry; drop it from the index.
                n += await client.zrem(ik(ns), m);
              } else if (
                !live(e, at) &&
                (await script([{ kind: "del", ns, key: m, expect: r }], undefined))
              ) {
                n++;
              }
            }
          } while (cursor !== "0");
        }
        return n;
      });
    },
    close,
  };
}
