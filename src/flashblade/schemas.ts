/**
 * zod schemas for what we read from arrays. Objects are loose (unknown fields pass through untouched, since
 * newer arrays add fields) and every field except the identifying one is optional because versions differ
 * (see the "(since X)" marks in shared/reference/flashblade-models.md).
 *
 * Arrays send null for absent values now and then. response.ts turns nulls into undefined before validation,
 * so callers test one thing (undefined) and the schemas stay transform-free: measured, a `.nullish()
 * .transform()` per field made validating a 12-item page ~8x slower than plain `.optional()`.
 */
import { z } from "zod";

function opt<T extends z.ZodType>(schema: T) {
  return schema.optional();
}

const int = z.number();
const str = z.string();
const bool = z.boolean();

export const referenceSchema = z.looseObject({
  name: opt(str),
  id: opt(str),
  resource_type: opt(str),
});
export type Reference = z.output<typeof referenceSchema>;

export const locationReferenceSchema = z.looseObject({
  name: opt(str),
  id: opt(str),
  resource_type: opt(str),
  location: opt(referenceSchema),
  display_name: opt(str),
  is_local: opt(bool),
});
export type LocationReference = z.output<typeof locationReferenceSchema>;

export const spaceSchema = z.looseObject({
  virtual: opt(int),
  data_reduction: opt(z.number()),
  unique: opt(int),
  snapshots: opt(int),
  total_physical: opt(int),
});
export type Space = z.output<typeof spaceSchema>;

export const fileSystemSchema = z.looseObject({
  name: str,
  id: opt(str),
  created: opt(int),
  provisioned: opt(int),
  destroyed: opt(bool),
  time_remaining: opt(int),
  hard_limit_enabled: opt(bool),
  fast_remove_directory_enabled: opt(bool),
  snapshot_directory_enabled: opt(bool),
  default_user_quota: opt(int),
  default_group_quota: opt(int),
  nfs: opt(
    z.looseObject({ enabled: opt(bool), rules: opt(str), v3_enabled: opt(bool), v4_1_enabled: opt(bool) }),
  ),
  /** `acl-mode` is the 1.0–1.1 spelling of acl_mode. */
  smb: opt(z.looseObject({ enabled: opt(bool), acl_mode: opt(str), "acl-mode": opt(str) })),
  http: opt(z.looseObject({ enabled: opt(bool) })),
  space: opt(spaceSchema),
  /** Read-only state (1.9+). */
  promotion_status: opt(str),
  /** Requested state (1.9+; the PATCH field from 1.12, see wire.ts). */
  requested_promotion_state: opt(str),
  source: opt(locationReferenceSchema),
  writable: opt(bool),
  multi_protocol: opt(z.looseObject({ access_control_style: opt(str), safeguard_acls: opt(bool) })),
});
export type FileSystem = z.output<typeof fileSystemSchema>;

export const snapshotSchema = z.looseObject({
  name: str,
  id: opt(str),
  created: opt(int),
  suffix: opt(str),
  /** Name of the source file system (a string, not a reference). */
  source: opt(str),
  source_id: opt(str),
  destroyed: opt(bool),
  source_destroyed: opt(bool),
  time_remaining: opt(int),
  policy: opt(locationReferenceSchema),
  owner: opt(referenceSchema),
  owner_destroyed: opt(bool),
  source_is_local: opt(bool),
  source_location: opt(referenceSchema),
  source_display_name: opt(str),
});
export type Snapshot = z.output<typeof snapshotSchema>;

export const alertSchema = z.looseObject({
  /** The alert index as a string. */
  name: str,
  id: opt(str),
  index: opt(int),
  code: opt(int),
  severity: opt(str),
  component: opt(str),
  state: opt(str),
  flagged: opt(bool),
  created: opt(int),
  updated: opt(int),
  notified: opt(int),
  subject: opt(str),
  description: opt(str),
  knowledge_base_url: opt(str),
  action: opt(str),
  variables: opt(z.record(z.string(), z.unknown())),
});
export type Alert = z.output<typeof alertSchema>;

export const arrayInfoSchema = z.looseObject({
  name: str,
  id: opt(str),
  os: opt(str),
  version: opt(str),
  revision: opt(str),
  time_zone: opt(str),
  banner: opt(str),
  idle_timeout: opt(int),
  ntp_servers: opt(z.array(str)),
  _as_of: opt(int),
});
export type ArrayInfo = z.output<typeof arrayInfoSchema>;

export const arraySpaceSchema = z.looseObject({
  name: opt(str),
  capacity: opt(int),
  parity: opt(z.number()),
  space: opt(spaceSchema),
  time: opt(int),
});
export type ArraySpace = z.output<typeof arraySpaceSchema>;

export const arrayPerformanceSchema = z.looseObject({
  name: opt(str),
  bytes_per_op: opt(z.number()),
  bytes_per_read: opt(z.number()),
  bytes_per_write: opt(z.number()),
  others_per_sec: opt(z.number()),
  reads_per_sec: opt(z.number()),
  writes_per_sec: opt(z.number()),
  usec_per_read_op: opt(z.number()),
  usec_per_write_op: opt(z.number()),
  usec_per_other_op: opt(z.number()),
  read_bytes_per_sec: opt(z.number()),
  write_bytes_per_sec: opt(z.number()),
  time: opt(int),
});
export type ArrayPerformance = z.output<typeof arrayPerformanceSchema>;

export const fileSystemReplicaLinkSchema = z.looseObject({
  id: opt(str),
  direction: opt(str),
  lag: opt(int),
  status: opt(str),
  status_details: opt(str),
  recovery_point: opt(int),
  local_file_system: opt(referenceSchema),
  remote_file_system: opt(referenceSchema),
  remote: opt(referenceSchema),
  policies: opt(z.array(locationReferenceSchema)),
});
export type FileSystemReplicaLink = z.output<typeof fileSystemReplicaLinkSchema>;

export const bucketSchema = z.looseObject({
  name: str,
  id: opt(str),
  created: opt(int),
  space: opt(spaceSchema),
  object_count: opt(int),
  account: opt(referenceSchema),
  destroyed: opt(bool),
  time_remaining: opt(int),
  versioning: opt(str),
});
export type Bucket = z.output<typeof bucketSchema>;

const quotaBase = {
  name: opt(str),
  file_system: opt(referenceSchema),
  file_system_default_quota: opt(int),
  quota: opt(int),
  usage: opt(int),
};
export const userQuotaSchema = z.looseObject({
  ...quotaBase,
  user: opt(z.looseObject({ id: opt(int), name: opt(str) })),
});
export type UserQuota = z.output<typeof userQuotaSchema>;
export const groupQuotaSchema = z.looseObject({
  ...quotaBase,
  group: opt(z.looseObject({ id: opt(int), name: opt(str) })),
});
export type GroupQuota = z.output<typeof groupQuotaSchema>;

export const replicationThroughputSchema = z.looseObject({
  transmitted_bytes_per_sec: opt(z.number()),
  received_bytes_per_sec: opt(z.number()),
});
export type ReplicationThroughput = z.output<typeof replicationThroughputSchema>;

/** Replication performance; the wire names the throughput object `async` (1.x) or `periodic` (2.x); wire.ts maps. */
export const replicationPerformanceSchema = z.looseObject({
  id: opt(str),
  name: opt(str),
  time: opt(int),
  async: opt(replicationThroughputSchema),
  periodic: opt(replicationThroughputSchema),
});
export type ReplicationPerformance = z.output<typeof replicationPerformanceSchema>;

// ---- envelopes ----

export const versionsSchema = z.looseObject({ versions: z.array(z.string()) });

export const paginationInfoSchema = z.looseObject({
  continuation_token: opt(str),
  total_item_count: opt(int),
});

/** Error bodies: `errors` on the wire, `error` in the SDK model and on some real responses. */
const errorEntrySchema = z.looseObject({
  context: opt(z.union([str, int])),
  message: opt(str),
  code: opt(z.union([int, str])),
});
export const errorBodySchema = z.looseObject({
  errors: opt(z.array(errorEntrySchema)),
  error: opt(z.union([z.array(errorEntrySchema), errorEntrySchema, str])),
  /** REST 2.x: a refused session (403) carries its reason at the top level. */
  message: opt(str),
});
export type ErrorEntry = z.output<typeof errorEntrySchema>;
