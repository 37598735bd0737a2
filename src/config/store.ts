/**
 * `store: { kind: redis }`: the shared store for several replicas. The password comes from the environment
 * (`password_env`) or a file (`password_file`, e.g. a mounted Kubernetes Secret), never from this file; a CA
 * file for TLS is read here too, so a missing file is a start-up error with its path, not a connection failure.
 */
import { isAbsolute, join } from "node:path";
import { z } from "zod";
import { UserFacingError } from "../errors.js";
import type { StoreOptions } from "../store/types.js";
import { parseDuration } from "../vocabulary.js";
import { Secret } from "./secret.js";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A duration from `minMs` to `maxMs`, written "1s", "500ms" or as milliseconds. */
const duration = (minMs: number, maxMs: number, example: string) =>
  z.union([z.string(), z.number()]).transform((v, ctx) => {
    const ms = typeof v === "number" ? v : parseDuration(v);
    if (ms === undefined || !Number.isSafeInteger(ms) || ms < minMs || ms > maxMs) {
      ctx.addIssue({
        code: "custom",
        message: `"${String(v)}" is not a time from ${minMs} ms to ${maxMs / 1000} s; write e.g. ${example}`,
      });
      return z.NEVER;
    }
    return ms;
  });

const hostPort = (message: string) =>
  z.string().regex(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/, message);

export const redisStoreSchema = z
  .strictObject({
    kind: z.literal("redis"),
    /** host, host:port or [v6]:port; 6379 when no port is given. Or `sentinels`, not both. */
    address: hostPort('write host:port, e.g. "redis.internal:6379"').optional(),
    /** Sentinels (host:port, 26379 when no port is given) that know the primary of `sentinel_name`. */
    sentinels: z.array(hostPort('write host:port, e.g. "sentinel-1.internal:26379"')).min(1).optional(),
    /** The master group name the sentinels monitor (`sentinel monitor <name> …`). */
    sentinel_name: z.string().min(1).optional(),
    sentinel_password_env: z.string().regex(ENV_NAME, "must be an environment variable name").optional(),
    sentinel_password_file: z.string().min(1).optional(),
    /**
     * Replicas that must acknowledge a write (Redis `WAIT`) before the bot acts on it (an approval claim, an
     * execution lease); absent: 1 when the primary has replicas, else 0. See docs/replicas.md.
     */
    min_replicas_acked: z.number().int().min(0).max(16).optional(),
    /** How long a write waits for those acknowledgements before it counts as not granted. */
    replica_ack_timeout: duration(10, 10_000, "0.5s").default(500),
    db: z.number().int().min(0).max(15).default(0),
    tls: z
      .union([
        z.boolean(),
        z.strictObject({
          ca_file: z.string().min(1).optional(),
          /** Skips certificate verification; logged as a warning at start-up. */
          insecure: z.boolean().default(false),
          servername: z.string().min(1).optional(),
        }),
      ])
      .default(false),
    username: z.string().min(1).optional(),
    password_env: z.string().regex(ENV_NAME, "must be an environment variable name").optional(),
    password_file: z.string().min(1).optional(),
    /** Every key starts with this: two bots sharing one Redis need different prefixes. */
    key_prefix: z.string().min(1).max(64).default("array-chatops:"),
    /**
     * How long a replica's hold on an array's polling lasts without renewal: when a replica dies, another takes
     * its arrays over within this time. Renewed every third of it.
     */
    lease_ttl: z
      .union([z.string(), z.number()])
      .transform((v, ctx) => {
        const ms = typeof v === "number" ? v : parseDuration(v);
        if (ms === undefined || !Number.isSafeInteger(ms) || ms < 3_000 || ms > 600_000) {
          ctx.addIssue({
            code: "custom",
            message: `"${String(v)}" is not a lease time from 3s to 10m; write e.g. 15s`,
          });
          return z.NEVER;
        }
        return ms;
      })
      .default(15_000),
    /** How often each replica PINGs Redis, so a Redis that hangs (connection open, no answers) counts as down. */
    ping_interval: duration(100, 60_000, "1s").default(1_000),
    /** A PING not answered within this marks the store down until one is answered (a timed-out command too). */
    ping_timeout: duration(100, 30_000, "1s").default(1_000),
  })
  .superRefine((s, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (s.password_env !== undefined && s.password_file !== undefined)
      issue("password_file", "give only one of password_env and password_file");
    if (s.sentinel_password_env !== undefined && s.sentinel_password_file !== undefined)
      issue("sentinel_password_file", "give only one of sentinel_password_env and sentinel_password_file");
    if (s.address === undefined && s.sentinels === undefined)
      issue("address", "give the Redis address, or sentinels and sentinel_name");
    if (s.address !== undefined && s.sentinels !== undefined)
      issue("sentinels", "give either address or sentinels, not both");
    if (s.sentinels !== undefined && s.sentinel_name === undefined)
      issue("sentinel_name", "sentinels need the master group name they monitor (sentinel_name)");
  });
export type RedisStoreConfig = z.output<typeof redisStoreSchema>;

export interface StoreSecrets {
  password?: Secret;
  sentinelPassword?: Secret;
  /** Absolute path of the CA file, checked readable. */
  caFile?: string;
}

/** Reads the Redis password and checks the CA file; every problem is reported at once. */
export function resolveStoreSecrets(
  store: { kind: string },
  deps: {
    env: Readonly<Record<string, string | undefined>>;
    readFile: (p: string) => string;
    baseDir: string;
  },
): StoreSecrets {
  if (store.kind !== "redis") return {};
  const s = store as RedisStoreConfig;
  const problems: string[] = [];
  const abs = (p: string) => (isAbsolute(p) ? p : join(deps.baseDir, p));
  const read = (where: string, path: string): string | undefined => {
    try {
      return deps.readFile(abs(path));
    } catch (err) {
      const reason = err instanceof Error && "code" in err ? String(err.code) : "unreadable";
      problems.push(`store.${where}: cannot read "${path}" (${reason})`);
      return undefined;
    }
  };
  const out: StoreSecrets = {};
  if (s.password_env !== undefined) {
    const v = deps.env[s.password_env]?.trim();
    if (v) out.password = new Secret(v);
    else problems.push(`store.password_env: environment variable ${s.password_env} is not set`);
  } else if (s.password_file !== undefined) {
    const v = read("password_file", s.password_file)?.trim();
    if (v) out.password = new Secret(v);
    else if (v === "") problems.push(`store.password_file: "${s.password_file}" is empty`);
  }
  if (s.sentinel_password_env !== undefined) {
    const v = deps.env[s.sentinel_password_env]?.trim();
    if (v) out.sentinelPassword = new Secret(v);
    else
      problems.push(
        `store.sentinel_password_env: environment variable ${s.sentinel_password_env} is not set`,
      );
  } else if (s.sentinel_password_file !== undefined) {
    const v = read("sentinel_password_file", s.sentinel_password_file)?.trim();
    if (v) out.sentinelPassword = new Secret(v);
    else if (v === "") problems.push(`store.sentinel_password_file: "${s.sentinel_password_file}" is empty`);
  }
  if (typeof s.tls === "object" && s.tls.ca_file !== undefined) {
    const pem = read("tls.ca_file", s.tls.ca_file);
    if (pem !== undefined && !pem.includes("-----BEGIN CERTIFICATE-----")) {
      problems.push(`store.tls.ca_file: "${s.tls.ca_file}" holds no PEM certificate`);
    } else if (pem !== undefined) out.caFile = abs(s.tls.ca_file);
  }
  if (problems.length > 0) {
    throw new UserFacingError(
      "CONFIG_INVALID",
      `The store configuration has ${problems.length} problem${problems.length === 1 ? "" : "s"}:\n` +
        problems.map((p) => `  - ${p}`).join("\n"),
      { details: { problems } },
    );
  }
  return out;
}

/** "host:port" → parts; the schema already checked the shape. */
export function parseRedisAddress(address: string, defaultPort = 6379): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d+))?$/.exec(address);
  return { host: m?.[1] ?? m?.[2] ?? address, port: m?.[3] ? Number(m[3]) : defaultPort };
}

/** The parsed section and its secrets as the Redis store's open options. */
export function redisStoreOptions(s: RedisStoreConfig, secrets: StoreSecrets = {}): StoreOptions {
  const sentinels = s.sentinels?.map((a) => parseRedisAddress(a, 26379));
  // With sentinels the primary's address comes from them; host/port stay as the first sentinel's, unused.
  const { host, port } =
    s.address === undefined ? (sentinels?.[0] ?? parseRedisAddress("")) : parseRedisAddress(s.address);
  const o: StoreOptions = {
    kind: "redis",
    host,
    port,
    db: s.db,
    keyPrefix: s.key_prefix,
    healthCheck: { intervalMs: s.ping_interval, timeoutMs: s.ping_timeout },
    replicaAckTimeoutMs: s.replica_ack_timeout,
    ...(sentinels ? { sentinels, sentinelName: s.sentinel_name ?? "" } : {}),
    ...(s.min_replicas_acked === undefined ? {} : { minReplicasAcked: s.min_replicas_acked }),
    ...(secrets.sentinelPassword === undefined
      ? {}
      : { sentinelPassword: secrets.sentinelPassword.reveal() }),
  };
  if (s.username !== undefined) o.username = s.username;
  if (secrets.password !== undefined) o.password = secrets.password.reveal();
  if (s.tls !== false) {
    const t = s.tls === true ? { insecure: false } : s.tls;
    o.tls = {
      insecure: t.insecure,
      ...(secrets.caFile ? { caFile: secrets.caFile } : {}),
      ...("servername" in t && t.servername ? { servername: t.servername } : {}),
    };
  }
  return o;
}
