/**
 * Every version-dependent difference in what goes on the wire, in one place. Resource functions ask this
 * module how to phrase a request for the negotiated version instead of comparing versions themselves.
 * Sources: the spec's versioning table and shared/reference/flashblade-rest-1x.md §6–§7.
 */

import { dialect } from "../rest-spec/dialect.js";
import { findOperation } from "../rest-spec/operations.js";
import { atLeast, generationOf } from "../rest-spec/versions.js";
import { versionTooOld } from "./errors.js";
import { eq, type Filter } from "./filter.js";
import type { ArrayClient, FileSystemCreate, FileSystemPatch, Query } from "./types.js";

/** Absolute request path of a versioned endpoint. */
export function apiPath(version: string, path: string): string {
  return `/api/${version}${path}`;
}

/** Listings that lost `total`/`total_only` at 1.12 (spec, "File systems", and the 1.12 versioning row). */
const TOTALS_DROPPED_AT_1_12 = new Set([
  "/file-systems",
  "/file-system-snapshots",
  "/file-system-snapshots/transfer",
  "/file-system-replica-links/transfer",
  "/keytabs",
]);

/**
 * Whether `total`/`total_only` may be sent on GET `path` at `version`. On 2.x the table says (2.x has
 * `total_only` again on the listings 1.12 dropped it from, and on some only from a later 2.x version).
 */
export function totalsAllowed(path: string, version: string): boolean {
  if (generationOf(version) === 2) return totalOnly2x(path, version);
  return !(TOTALS_DROPPED_AT_1_12.has(path) && from112(version));
}

// Asked on every listing: one table lookup per path and version.
const totalOnlyAt = new Map<string, boolean>();
function totalOnly2x(path: string, version: string): boolean {
  const key = `${version} ${path}`;
  let v = totalOnlyAt.get(key);
  if (v === undefined) {
    const op = findOperation("GET", path);
    v = op !== undefined && "total_only" in dialect(version).params(op);
    if (totalOnlyAt.size < 1024) totalOnlyAt.set(key, v);
  }
  return v;
}

// Asked on every listing; a handful of distinct versions ever reach it.
const is112 = new Map<string, boolean>();
function from112(version: string): boolean {
  let v = is112.get(version);
  if (v === undefined) {
    v = atLeast(version, "1.12");
    if (is112.size < 64) is112.set(version, v);
  }
  return v;
}

/** Removes `total`/`total_only` where the version dropped them, so callers can pass them unconditionally. */
export function adaptListQuery(path: string, version: string, query: Query): Query {
  if (totalsAllowed(path, version) || (query.total === undefined && query.total_only === undefined))
    return query;
  const { total: _t, total_only: _o, ...rest } = query;
  return rest;
}

/** Endpoints whose PATCH/DELETE select one object with singular `name` (or `ids` from 1.9). */
const SINGULAR_NAME = new Set(["/file-systems", "/file-system-snapshots"]);

export type Selector = { name: string } | { id: string };

/**
 * The query that selects one object for PATCH/DELETE. File systems and snapshots take singular `name` on
 * every version and accept `ids` only from 1.9; other collections take `names`/`ids`.
 */
export function selectOne(array: string, version: string, path: string, sel: Selector): Query {
  if (SINGULAR_NAME.has(path)) {
    if ("name" in sel) return { name: sel.name };
    if (!atLeast(version, "1.9")) throw versionTooOld(array, version, "1.9", `selecting ${path} by id`);
    return { ids: [sel.id] };
  }
  return "name" in sel ? { names: [sel.name] } : { ids: [sel.id] };
}

/** The GET parameter that selects snapshots by name or by source file system (snapshots have no `names`). */
export const SNAPSHOT_NAMES_PARAM = "names_or_sources";

/**
 * Protocol settings in a create or update body:
 * - SMB's ACL mode is `acl-mode` (hyphen) in 1.0–1.1 and `acl_mode` from 1.2;
 * - NFS has only `enabled` (the v3 switch) before 1.6, `v3_enabled`/`v4_1_enabled` from 1.6.
 */
function protocolFields(array: string, version: string, body: Record<string, unknown>): void {
  const smb = body.smb as Record<string, unknown> | undefined;
  if (smb && smb.acl_mode !== undefined && !atLeast(version, "1.2")) {
    const { acl_mode, ...rest } = smb;
    body.smb = { ...rest, "acl-mode": acl_mode };
  }
  const nfs = body.nfs as Record<string, unknown> | undefined;
  // `enabled` is the version-neutral switch for NFS as a whole. From 1.6 it only covers v3, so "off" turns
  // v4.1 off as well and "on" enables v3, as the array's own default does.
  if (nfs && nfs.enabled !== undefined && atLeast(version, "1.6")) {
    const { enabled, ...rest } = nfs;
    body.nfs = enabled ? { ...rest, v3_enabled: true } : { ...rest, v3_enabled: false, v4_1_enabled: false };
  }
  if (nfs && !atLeast(version, "1.6")) {
    if (nfs.v4_1_enabled !== undefined) throw versionTooOld(array, version, "1.6", "switching NFSv4.1");
    if (nfs.v3_enabled !== undefined) {
      const { v3_enabled, ...rest } = nfs;
      body.nfs = { ...rest, enabled: v3_enabled };
    }
  }
}

/**
 * Update fields that appeared after 1.0 (FileSystem model of the SDK, per version), with what they do. Sending
 * one to an older array would be a 400 for an unknown field; refusing here says which version it needs.
 */
const PATCH_FIELDS_SINCE: readonly [keyof FileSystemPatch, string, string][] = [
  ["destroyed", "1.1", "destroying or recovering a file system"],
  ["hard_limit_enabled", "1.4", "a hard limit"],
  ["default_user_quota", "1.6", "a default user quota"],
  ["default_group_quota", "1.6", "a default group quota"],
  ["writable", "1.9", "making a file system writable or read-only"],
  // Promotion is requested with `requested_promotion_state` from 1.9 (the SDK's FileSystem model, and
  // FileSystemPatch from 1.11); `promotion_status` is the read-only state ("changes via
  // requested_promotion_state"), never a request field, so no version sends it.
  ["requested_promotion_state", "1.9", "promoting or demoting a file system"],
];

/**
 * The PATCH body for a file system, refused before sending when the version lacks a field (see
 * PATCH_FIELDS_SINCE); `name` never goes in an update body. Reading differs too: `promotion_status`
 * (read-only) is reported only in 1.9–1.11, so use promotionOf() rather than either field.
 */
export function fileSystemPatchBody(
  array: string,
  version: string,
  patch: FileSystemPatch,
): Record<string, unknown> {
  const body: Record<string, unknown> = { ...patch };
  delete body.name;
  for (const [field, since, what] of PATCH_FIELDS_SINCE) {
    if (body[field] !== undefined && !atLeast(version, since))
      throw versionTooOld(array, version, since, what);
  }
  protocolFields(array, version, body);
  return body;
}

/**
 * The query of a file system update. Demoting needs `discard_non_snapshotted_data=true` (1.9+, the SDK's
 * query name; its docs spell it with hyphens): the array restores the last common snapshot, so the flag is the
 * caller's acknowledgement that newer data is lost. Only sent when asked for.
 */
export function fileSystemUpdateQuery(
  array: string,
  version: string,
  name: string,
  opts: { ignoreUsage?: boolean; discardNonSnapshottedData?: boolean },
): Query {
  const query: Query = { ...selectOne(array, version, "/file-systems", { name }) };
  if (opts.ignoreUsage) query["ignore_usage"] = true;
  if (opts.discardNonSnapshottedData) {
    if (!atLeast(version, "1.9")) throw versionTooOld(array, version, "1.9", "demoting a file system");
    query["discard_non_snapshotted_data"] = true;
  }
  return query;
}

/**
 * Destroying a file system: arrays refuse while NFS, SMB or HTTP still serve it, so the destroying PATCH turns
 * them off in the same request (as Ansible's purefb_fs does). A file system with a replica link also needs
 * `delete_link_on_eradication=true` (1.9+); send it only when the caller has named the links that stop.
 */
export function fileSystemDestroy(
  array: string,
  version: string,
  name: string,
  opts: { deleteLinkOnEradication?: boolean } = {},
): { query: Query; body: Record<string, unknown> } {
  const nfs = atLeast(version, "1.6") ? { v3_enabled: false, v4_1_enabled: false } : { v3_enabled: false };
  const body = fileSystemPatchBody(array, version, {
    destroyed: true,
    nfs,
    smb: { enabled: false },
    http: { enabled: false },
  });
  const query: Query = { ...selectOne(array, version, "/file-systems", { name }) };
  if (opts.deleteLinkOnEradication && atLeast(version, "1.9")) query["delete_link_on_eradication"] = true;
  return { query, body };
}

/** The POST body for a new file system (same protocol-field translation as updates). */
export function fileSystemCreateBody(
  array: string,
  version: string,
  create: FileSystemCreate,
): Record<string, unknown> {
  const body: Record<string, unknown> = { ...create };
  protocolFields(array, version, body);
  return body;
}

/** The promotion state of a file system as read, whichever field the version fills. */
export function promotionOf(fs: {
  promotion_status?: string;
  requested_promotion_state?: string;
}): string | undefined {
  return fs.promotion_status ?? fs.requested_promotion_state;
}

/**
 * POST /buckets: the body is a BucketPost `{"account": {"name": …}}` in every version. The spec's 1.9 rename to
 * `bucket` is the SDK's keyword for the whole body (Pure's models 1.5–1.12 have only `account`); it never
 * reaches the wire, and an array refuses a body without `account`.
 */
export function bucketCreate(
  _version: string,
  name: string,
  account: string,
): { query: Query; body: unknown } {
  return { query: { names: [name] }, body: { account: { name: account } } };
}

/**
 * Any request body from a caller that speaks the newest field names (the command catalogue): the fields that
 * were renamed between versions go out under this version's name. Today: SMB's ACL mode (`acl-mode` in
 * 1.0–1.1). BucketPost's account travels as `account` in every version (see bucketCreate).
 */
export function adaptBody(_method: string, _path: string, version: string, body: unknown): unknown {
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  const b = { ...(body as Record<string, unknown>) };
  const smb = b["smb"] as Record<string, unknown> | undefined;
  if (smb && smb["acl_mode"] !== undefined && !atLeast(version, "1.2")) {
    const { acl_mode, ...rest } = smb;
    b["smb"] = { ...rest, "acl-mode": acl_mode };
  }
  return b;
}

/** POST /file-system-snapshots: sources in the query, the optional suffix in a SnapshotSuffix body. */
export function snapshotCreate(
  sources: readonly string[],
  suffix?: string,
): { query: Query; body?: unknown } {
  return suffix === undefined ? { query: { sources } } : { query: { sources }, body: { suffix } };
}

/**
 * Replication throughput: the object is `async` on the 1.x wire (Pure's SDK reads it so at 1.12 too; the spec's
 * "renamed in 1.12.2" is the SDK's attribute) and `periodic` in 2.x. Read whichever is present.
 */
export function replicationMetrics<T>(item: { async?: T; periodic?: T }): T | undefined {
  return item.periodic ?? item.async;
}

/** Throws ARRAY_VERSION_TOO_OLD, naming `what`, unless the command's array speaks `min`. */
export async function requireApi(ctx: { array: ArrayClient; arrayName: string }, min: string, what: string) {
  const version = await ctx.array.version();
  if (!atLeast(version, min)) throw versionTooOld(ctx.arrayName, version, min, what);
}

/**
 * The filter that leaves destroyed objects (file systems, snapshots) out of a listing, or undefined where the
 * version has no `destroyed` field (1.0, where nothing can be destroyed).
 */
export function hideDestroyedFilter(version: string): Filter | undefined {
  return atLeast(version, "1.1") ? eq("destroyed", false) : undefined;
}
