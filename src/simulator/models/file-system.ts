/** The simulated file system: stored once in the 1.12 shape, rendered per REST version. */
import { z } from "zod";
import { NAME_RULES } from "../../rest-spec/names.js";
import { atLeast } from "../../rest-spec/versions.js";
import type { SimReference } from "../types.js";
import { nonNegativeInt, referenceByName } from "./body.js";

export const ERADICATION_DELAY_MS = 24 * 60 * 60 * 1000;

export interface SpaceRec {
  /** Logical bytes written; the "usage" the hard limit compares with `provisioned`. */
  virtual: number;
  unique: number;
  snapshots: number;
  data_reduction: number;
}

export interface FileSystemRec {
  id: string;
  name: string;
  created: number;
  provisioned: number;
  hard_limit_enabled: boolean;
  fast_remove_directory_enabled: boolean;
  snapshot_directory_enabled: boolean;
  nfs: { v3_enabled: boolean; v4_1_enabled: boolean; rules: string };
  http: { enabled: boolean };
  smb: { enabled: boolean; acl_mode: "shared" | "native" };
  default_user_quota: number;
  default_group_quota: number;
  destroyed: boolean;
  destroyedAt: number | null;
  requested_promotion_state: "promoted" | "demoted";
  writable: boolean;
  multi_protocol: { access_control_style: string; safeguard_acls: boolean };
  source: SimReference | null;
  space: SpaceRec;
}

export function renderSpace(s: SpaceRec): Record<string, number> {
  return {
    virtual: s.virtual,
    data_reduction: s.data_reduction,
    unique: s.unique,
    snapshots: s.snapshots,
    total_physical: s.unique + s.snapshots,
  };
}

/**
 * `destroyed` from a PATCH body: destroying starts the eradication timer, recovering stops it, and asking for
 * the state the object is already in leaves its timer alone. File systems, snapshots and buckets alike.
 */
export function applyDestroyed(
  obj: { destroyed: boolean; destroyedAt: number | null },
  destroyed: boolean | undefined,
  now: number,
): void {
  if (destroyed === true && !obj.destroyed) {
    obj.destroyed = true;
    obj.destroyedAt = now;
  } else if (destroyed === false && obj.destroyed) {
    obj.destroyed = false;
    obj.destroyedAt = null;
  }
}

export function timeRemaining(destroyedAt: number | null, now: number): number | null {
  return destroyedAt === null ? null : Math.max(0, destroyedAt + ERADICATION_DELAY_MS - now);
}

/**
 * A renderer for one REST version: the version checks run once per listing, not once per file system, and
 * every item gets its fields in the same order (one object shape), which keeps 100,000-item listings fast.
 */
export function fileSystemRenderer(
  version: string,
  now: number,
  sourceOf: (fs: FileSystemRec) => LocationReference = selfSource,
): (fs: FileSystemRec) => Record<string, unknown> {
  const v = (since: string) => atLeast(version, since);
  const [v11, v12, v14, v16, v18, v19, v111] = [
    v("1.1"),
    v("1.2"),
    v("1.4"),
    v("1.6"),
    v("1.8"),
    v("1.9"),
    v("1.11"),
  ];
  return (fs) => {
    const nfs: Record<string, unknown> = v16
      ? {
          enabled: fs.nfs.v3_enabled,
          rules: fs.nfs.rules,
          v3_enabled: fs.nfs.v3_enabled,
          v4_1_enabled: fs.nfs.v4_1_enabled,
        }
      : { enabled: fs.nfs.v3_enabled, rules: fs.nfs.rules };
    const out: Record<string, unknown> = {
      name: fs.name,
      created: fs.created,
      fast_remove_directory_enabled: fs.fast_remove_directory_enabled,
      provisioned: fs.provisioned,
      snapshot_directory_enabled: fs.snapshot_directory_enabled,
      nfs,
      http: { enabled: fs.http.enabled },
      smb: v12
        ? { enabled: fs.smb.enabled, acl_mode: fs.smb.acl_mode }
        : { enabled: fs.smb.enabled, "acl-mode": fs.smb.acl_mode },
      space: renderSpace(fs.space),
    };
    if (v11) {
      out["destroyed"] = fs.destroyed;
      out["time_remaining"] = timeRemaining(fs.destroyedAt, now);
    }
    if (v14) out["hard_limit_enabled"] = fs.hard_limit_enabled;
    if (v16) {
      out["default_user_quota"] = fs.default_user_quota;
      out["default_group_quota"] = fs.default_group_quota;
    }
    if (v18) out["id"] = fs.id;
    if (v19) {
      // The read-only status follows the request at once (no transfer to wait for here), in 1.12 too.
      out["promotion_status"] = fs.requested_promotion_state;
      out["requested_promotion_state"] = fs.requested_promotion_state;
      out["source"] = sourceOf(fs);
      out["writable"] = fs.writable;
    }
    if (v111) out["multi_protocol"] = { ...fs.multi_protocol };
    return out;
  };
}

/** FileSystem.source (a LocationReference): where the file system's data comes from, always filled from 1.9. */
export interface LocationReference {
  name: string;
  id: string | null;
  resource_type: string;
  location: { name: string; id: string | null; resource_type: "arrays" };
  display_name: string;
  is_local: boolean;
}

/** Without an array to name: the file system itself (tests of the renderer alone). */
function selfSource(fs: FileSystemRec): LocationReference {
  return {
    name: fs.name,
    id: fs.id,
    resource_type: "file-systems",
    location: { name: "", id: null, resource_type: "arrays" },
    display_name: fs.name,
    is_local: true,
  };
}

/** A new file system with the array's defaults: no protocols, unlimited size, no usage. */
export function blankFileSystem(id: string, name: string, created: number): FileSystemRec {
  return {
    id,
    name,
    created,
    provisioned: 0,
    hard_limit_enabled: false,
    fast_remove_directory_enabled: false,
    snapshot_directory_enabled: true,
    nfs: { v3_enabled: false, v4_1_enabled: false, rules: "*(rw,no_root_squash)" },
    http: { enabled: false },
    smb: { enabled: false, acl_mode: "shared" },
    default_user_quota: 0,
    default_group_quota: 0,
    destroyed: false,
    destroyedAt: null,
    requested_promotion_state: "promoted",
    writable: true,
    multi_protocol: { access_control_style: "shared", safeguard_acls: true },
    source: null,
    space: { virtual: 0, unique: 0, snapshots: 0, data_reduction: 1 },
  };
}

/** Sets unique bytes from the logical usage and the data reduction ratio. */
export function setLogicalUsage(space: SpaceRec, bytes: number): void {
  space.virtual = Math.max(0, Math.round(bytes));
  space.unique = Math.round(space.virtual / Math.max(1, space.data_reduction));
}

export const FS_READ_ONLY = ["created", "space", "id", "time_remaining", "promotion_status"] as const;

/**
 * File system names as src/rest-spec/names.ts gives them: 1-63 characters without ',' (the list separator),
 * '/', '.' (the snapshot separator) or control characters, not starting with a blank. Spaces inside stay
 * allowed so encoding tests can use "fs 2".
 */
export const FS_NAME = z.string().regex(NAME_RULES["file-system"].pattern, NAME_RULES["file-system"].says);

/** The body of POST (create) or PATCH (update) /file-systems as this version accepts it. */
export function fileSystemBodySchema(version: string, mode: "create" | "update") {
  const v = (since: string) => atLeast(version, since);
  const nfs: Record<string, z.ZodType> = { enabled: z.boolean(), rules: z.string() };
  if (v("1.6")) Object.assign(nfs, { v3_enabled: z.boolean(), v4_1_enabled: z.boolean() });
  if (mode === "update" && v("1.11")) {
    Object.assign(nfs, { add_rules: z.string(), remove_rules: z.string(), after: z.string() });
  }
  const aclMode = z.enum(["shared", "native"]);
  const smb = v("1.2")
    ? { enabled: z.boolean(), acl_mode: aclMode }
    : { enabled: z.boolean(), "acl-mode": aclMode };
  const shape: Record<string, z.ZodType> = {
    provisioned: nonNegativeInt,
    fast_remove_directory_enabled: z.boolean(),
    snapshot_directory_enabled: z.boolean(),
    nfs: z.strictObject(nfs).partial(),
    http: z.strictObject({ enabled: z.boolean() }).partial(),
    smb: z.strictObject(smb).partial(),
  };
  if (mode === "create") shape["name"] = FS_NAME;
  if (mode === "update" && v("1.1")) shape["destroyed"] = z.boolean();
  if (v("1.4")) shape["hard_limit_enabled"] = z.boolean();
  if (v("1.6"))
    Object.assign(shape, { default_user_quota: nonNegativeInt, default_group_quota: nonNegativeInt });
  if (v("1.9")) {
    Object.assign(shape, {
      requested_promotion_state: z.enum(["promoted", "demoted"]),
      writable: z.boolean(),
    });
    if (mode === "create") shape["source"] = referenceByName;
  }
  if (v("1.11")) {
    shape["multi_protocol"] = z
      .strictObject({
        access_control_style: z.enum(["nfs", "smb", "shared", "independent", "mode-bits"]),
        safeguard_acls: z.boolean(),
      })
      .partial();
  }
  const obj = z.strictObject(shape).partial();
  return mode === "create" ? obj.required({ name: true }) : obj;
}

export type FileSystemBody = {
  name?: string;
  provisioned?: number;
  hard_limit_enabled?: boolean;
  fast_remove_directory_enabled?: boolean;
  snapshot_directory_enabled?: boolean;
  nfs?: {
    enabled?: boolean;
    rules?: string;
    v3_enabled?: boolean;
    v4_1_enabled?: boolean;
    add_rules?: string;
    remove_rules?: string;
    after?: string;
  };
  http?: { enabled?: boolean };
  smb?: { enabled?: boolean; acl_mode?: "shared" | "native"; "acl-mode"?: "shared" | "native" };
  default_user_quota?: number;
  default_group_quota?: number;
  destroyed?: boolean;
  requested_promotion_state?: "promoted" | "demoted";
  writable?: boolean;
  multi_protocol?: { access_control_style?: string; safeguard_acls?: boolean };
  source?: { name: string };
};
