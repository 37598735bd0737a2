/**
 * The array client's public contract: what commands (H5) and alert polling (H7) call. Implementations live in
 * client.ts / pool.ts; this file holds only types so it can be imported anywhere without pulling in undici.
 */
import type { z } from "zod";
import type { Logger } from "../logger.js";
import type { HttpMethod } from "../rest-spec/endpoints.js";
import type { FleetMember } from "./fleet-members.js";
import type {
  Alert,
  ArrayInfo,
  ArrayPerformance,
  ArraySpace,
  FileSystem,
  FileSystemReplicaLink,
  ReplicationPerformance,
  ReplicationThroughput,
  Snapshot,
} from "./schemas.js";
import type { BudgetStats } from "./socket-budget.js";

/** Query parameters; lists are sent comma-joined, undefined values are dropped. */
export type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

export interface Page<T> {
  items: T[];
  /** `pagination_info.total_item_count`, when the array sent it. */
  totalItemCount?: number;
  continuationToken?: string | null;
  /** The `total` element (an object or a list, depending on the endpoint), when present. */
  total?: unknown;
  /** REST 2.x partial answer (HTTP 207): what the array could not list, beside the items it could. */
  errors?: { message?: string | undefined; context?: string | number | undefined }[];
  /** A GET answered with a file (`/logs`, `/keytabs/download`): its bytes; `items` then describes it. */
  file?: DownloadedFile;
}

export interface DownloadedFile {
  /** From Content-Disposition; the path's last segment when the array names none. */
  filename: string;
  bytes: Uint8Array;
}

export interface ArrayHealth {
  name: string;
  tags: readonly string[];
  /**
   * "unknown" until the array first answers: an array is "up" only once it did. "refused" while it answers but
   * refuses the bot's API token: it serves no command, so it is not up.
   */
  status: "unknown" | "up" | "down" | "refused";
  reachable: boolean;
  /** The negotiated API version, once known. */
  version?: string;
  sessionAgeMs?: number;
  /** How the bot logs in to it: an API token's session, or an OAuth2 API client's access token. */
  auth?: "api_token" | "api_client";
  lastError?: { code: string; message: string; at: number };
  latencyMs: { p50?: number; p95?: number; samples: number };
  inFlight: number;
  queued: number;
  /** Set while marked down: since when, why, and when the next probe is allowed. */
  down?: { since: number; reason: string; retryAt: number };
  /** Set while the array refuses the bot's login: since when, and the setting that holds the token. */
  refused?: { since: number; setting: string };
}

export interface RequestOptions<T> {
  query?: Query;
  schema?: z.ZodType<T>;
}

export interface WriteOptions<T> extends RequestOptions<T> {
  body?: unknown;
}

/** Fields a file system update may carry (FileSystemPatch). Promotion goes in `requested_promotion_state`. */
export interface FileSystemPatch {
  provisioned?: number;
  hard_limit_enabled?: boolean;
  default_user_quota?: number;
  default_group_quota?: number;
  fast_remove_directory_enabled?: boolean;
  snapshot_directory_enabled?: boolean;
  writable?: boolean;
  nfs?: { enabled?: boolean; v3_enabled?: boolean; v4_1_enabled?: boolean; rules?: string };
  smb?: { enabled?: boolean; acl_mode?: string };
  http?: { enabled?: boolean };
  /** Needs 1.9. Read the state back with promotionOf() (wire.ts): the read-side field differs by version. */
  requested_promotion_state?: "promoted" | "demoted";
  destroyed?: boolean;
}

export interface FileSystemCreate extends Omit<FileSystemPatch, "destroyed" | "requested_promotion_state"> {
  name: string;
}

export interface ListQuery {
  names?: readonly string[];
  /** A filter expression, built with filter.ts. */
  filter?: string;
  sort?: string;
  limit?: number;
}

/** Query flags of a file system update (wire.ts fileSystemUpdateQuery). */
export interface FileSystemUpdateOptions {
  /** Accept a hard limit below current usage. */
  ignoreUsage?: boolean;
  /** Demoting: accept losing data not yet in a replicated snapshot (1.9+). */
  discardNonSnapshottedData?: boolean;
}

/**
 * The typed reads and planners commands use (resources/*.ts say which). There are no typed writes: a change is
 * planned, shown, and sent as planned through the client's generic `send`, the one send path.
 */
export interface FileSystemsApi {
  get(name: string): Promise<FileSystem | undefined>;
  /** Destroyed file systems; none before 1.1, where nothing can be destroyed. */
  destroyed(): AsyncIterable<FileSystem>;
  /** The exact requests of a create, update or destroy for this array's version (version differences live here). */
  planCreate(body: FileSystemCreate): Promise<PlannedCall>;
  planUpdate(name: string, patch: FileSystemPatch, opts?: FileSystemUpdateOptions): Promise<PlannedCall>;
  /** Destroying turns the protocols off too (arrays refuse otherwise); see wire.ts fileSystemDestroy. */
  planDestroy(name: string, opts?: { deleteLinkOnEradication?: boolean }): Promise<PlannedCall>;
}

export interface SnapshotsApi {
  get(name: string): Promise<Snapshot | undefined>;
}

export interface AlertsApi {
  list(q?: Omit<ListQuery, "names">): Promise<Page<Alert>>;
}

export interface ArraysApi {
  info(): Promise<ArrayInfo>;
  space(type?: "array" | "file-system" | "object-store"): Promise<ArraySpace>;
  performance(protocol?: string): Promise<ArrayPerformance>;
  /** Replication throughput (1.9+), `throughput` read from `async` or `periodic` whichever the version sends. */
  replicationPerformance(
    type?: "all" | "file-system" | "object-store",
  ): Promise<(ReplicationPerformance & { throughput?: ReplicationThroughput })[]>;
}

export interface ReplicaLinksApi {
  /** Links whose local file system is `name`; [] on arrays older than 1.9 (no replication API). */
  forFileSystem(name: string): Promise<FileSystemReplicaLink[]>;
}

/**
 * One write exactly as it goes on the wire for this array's version: query values as sent (lists already
 * comma-joined), the body as serialised. Planned once, then both shown (dry run, approval card) and sent.
 */
export interface PlannedCall {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** Path below /api/<version>, e.g. "/file-systems". */
  path: string;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
}

export interface ArrayClient {
  readonly name: string;
  readonly tags: readonly string[];
  /** A fleet member reached through a configured array (fleet-members.ts): every request names it as context. */
  readonly context?: FleetMember;
  /** The host name or address the bot reaches this array at (from its configured address). */
  readonly host?: string;
  /** The negotiated version (negotiates on first use). */
  version(): Promise<string>;
  supports(minVersion: string): Promise<boolean>;
  health(): ArrayHealth;
  /** The version, then a login: whether the array answers and takes the bot's token (health says). */
  check(): Promise<void>;
  /** One page of a GET. */
  get<T = unknown>(path: string, opts?: RequestOptions<T>): Promise<Page<T>>;
  /** Every item of a GET, one page in memory at a time. */
  iterate<T = unknown>(path: string, opts?: RequestOptions<T> & { pageSize?: number }): AsyncIterable<T>;
  count(path: string, query?: Query): Promise<number>;
  post<T = unknown>(path: string, opts?: WriteOptions<T>): Promise<T[]>;
  patch<T = unknown>(path: string, opts?: WriteOptions<T>): Promise<T[]>;
  delete(path: string, opts?: { query?: Query }): Promise<void>;
  /** Sends a planned write exactly as planned; returns the items the array answered with. */
  send<T = unknown>(plan: PlannedCall, schema?: z.ZodType<T>): Promise<T[]>;
  readonly fileSystems: FileSystemsApi;
  readonly snapshots: SnapshotsApi;
  readonly alerts: AlertsApi;
  readonly arrays: ArraysApi;
  readonly replicaLinks: ReplicaLinksApi;
  /** Logs out and closes connections. */
  close(): Promise<void>;
}

export interface ArrayPool {
  list(): ArrayClient[];
  /** Throws ARRAY_UNKNOWN (user-facing, with did-you-mean suggestions). */
  get(name: string): ArrayClient;
  /** "a", "a,b", "all", "tag:prod" (and mixes like "a,tag:dr"). */
  select(spec: string): ArrayClient[];
  /**
   * Learns the fleet members the configured arrays list when `spec` names an array that is not configured (or
   * always, without `spec`), so get() reaches it through its fleet (fleet-members.ts).
   */
  discover?(spec?: string): Promise<void>;
  /** The fleet members learned so far, reached through configured arrays. */
  fleetMembers?(): readonly FleetMember[];
  health(): ArrayHealth[];
  /**
   * Asks every array whether it answers and takes the bot's token (the version, then a login), a few arrays at a
   * time, so health is known from start-up instead of from the first command; resolves when every array has
   * answered or failed, never rejects.
   */
  checkAll(): Promise<void>;
  /** Ends the sessions of arrays nothing was sent to for the idle session time; resolves with how many. */
  sweepIdle(): Promise<number>;
  /** The sockets open to all arrays together, against the bound. */
  sockets(): BudgetStats;
  close(): Promise<void>;
}

/**
 * One completed call to an array, as the pool's observer hears it: after retries and any re-login, with the
 * final outcome. Calls refused before anything was sent (array marked down, version too old, queue full) are
 * included with their code. Version negotiation is a call of its own (GET "/api_version", once per exchange
 * however many callers waited on it); a login belongs to the call that needed it. `path` is the endpoint
 * table's path ("/file-systems"), a bounded set.
 */
export interface ArrayCallEvent {
  array: string;
  method: HttpMethod;
  path: string;
  outcome: "ok" | "error";
  /** The error code when `outcome` is "error". */
  code?: string;
  /** The final HTTP status, when the array answered. */
  status?: number;
  /** From the call's start to its outcome, in milliseconds (monotonic clock). */
  ms: number;
}

export interface PoolDeps {
  logger: Logger;
  /**
   * Hears every completed array call (metrics). Called synchronously on the hot path, so keep it cheap; an
   * exception it throws is logged once and never reaches the caller.
   */
  onCall?: (event: ArrayCallEvent) => void;
  /** Milliseconds since the epoch; injected so tests control time. */
  now?: () => number;
  /** [0, 1); injected so back-off jitter is deterministic in tests. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /**
   * While an array is marked down, probe it on a timer (default true), so it comes back without a user's call
   * paying for the attempt. Tests that step through on-call probes with a fake clock turn it off.
   */
  probeInBackground?: boolean;
  /** Sockets open to all arrays together (`array_pool.max_sockets`). */
  maxSockets?: number;
  /** A socket unused this long is closed (`array_pool.idle_socket`). */
  idleSocketMs?: number;
  /** An array nothing was sent to for this long is logged out (`array_pool.idle_session`); see sweepIdle. */
  idleSessionMs?: number;
  /** Ends idle sessions on a timer (the bot does; tests call sweepIdle() themselves). */
  sweepIdle?: boolean;
  /** Arrays checkAll() asks at once (`array_pool.checks_at_once`). */
  checkConcurrency?: number;
}

/** The wire models (FileSystem, Snapshot, ...) belong to this contract too: commands import them from here. */
export type * from "./schemas.js";
export type { BudgetStats };
