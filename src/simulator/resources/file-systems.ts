/** /file-systems: create, list, update (destroy, recover, resize, protocols), eradicate. */

import { bodyObject, parseBody, rejectReadOnly } from "../models/body.js";
import {
  applyDestroyed,
  blankFileSystem,
  type FileSystemBody,
  type FileSystemRec,
  FS_READ_ONLY,
  fileSystemBodySchema,
  fileSystemRenderer,
  type LocationReference,
} from "../models/file-system.js";
import { checkDestroy, checkPromotion, type FileSystemFlags } from "../models/file-system-rules.js";
import type { FileSystemReplicaLinkRec } from "../models/replication.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { at, EMPTY, type Handler, listing, ok, paramSince, preselect, selectByNameOrIds } from "./common.js";
import { checkRetained, withFamilies, wormPoliciesOnCreate } from "./file-system-families.js";
import { eradicateFileSystem } from "./file-system-removal.js";
import { applyNfsRuleEdits } from "./nfs-rules.js";
import { applyWormPolicy } from "./worm-data-policies.js";

/**
 * FileSystem.source as arrays fill it from 1.9: the snapshot a file system was restored from, else, for a
 * replica target (the local end of an inbound link), the source file system on the other array, else itself.
 */
export function sourceOf(state: SimState): (fs: FileSystemRec) => LocationReference {
  const here = { name: state.array.name, id: state.array.id, resource_type: "arrays" as const };
  const inbound = new Map<string, FileSystemReplicaLinkRec>();
  for (const l of state.fileSystemReplicaLinks.values())
    if (l.direction === "inbound") inbound.set(l.localFileSystem, l);
  return (fs) => {
    if (fs.source !== null)
      return { ...fs.source, location: here, display_name: fs.source.name, is_local: true };
    const link = inbound.get(fs.name);
    const remote = link && state.arrayConnections.get(link.remoteId)?.remote;
    if (link && remote) {
      return {
        name: link.remoteFileSystem,
        id: null,
        resource_type: "file-systems",
        location: { name: remote.name, id: remote.id, resource_type: "arrays" },
        display_name: `${remote.name}:${link.remoteFileSystem}`,
        is_local: false,
      };
    }
    return {
      name: fs.name,
      id: fs.id,
      resource_type: "file-systems",
      location: here,
      display_name: fs.name,
      is_local: true,
    };
  };
}

/** The renderer of this request's version, with sources read from the state. */
function renderer(req: SimRequest, state: SimState) {
  const render = fileSystemRenderer(req.version, state.clock(), sourceOf(state));
  return (fs: FileSystemRec) => withFamilies(state, req.version, render(fs));
}

export const listFileSystems: Handler = (req, state) => {
  const render = renderer(req, state);
  // File systems cannot be renamed, so the name is a stable paging key and the state map finds it in O(1):
  // a continuation page costs O(limit), never a pass over the whole collection.
  const opts = {
    totals: at(req, "1.12") ? ("none" as const) : ("object" as const),
    noun: "File system",
    keyOf: (item: object) => (item as { name?: string }).name,
  };
  if (req.query.has("token")) {
    return listing([], req, {
      ...opts,
      lookup: (key) => mapDefined(state.fileSystems.get(String(key)), render),
    });
  }
  const destroyed = req.query.bool("destroyed");
  const items: Record<string, unknown>[] = [];
  for (const fs of preselect(req, state.fileSystems, () => state.fileSystems.values())) {
    if (destroyed === undefined || fs.destroyed === destroyed) items.push(render(fs));
  }
  return listing(items, req, opts);
};

function mapDefined<T, U>(value: T | undefined, f: (v: T) => U): U | undefined {
  return value === undefined ? undefined : f(value);
}

function parseFsBody(req: SimRequest, mode: "create" | "update"): FileSystemBody {
  const body = bodyObject(req, "FileSystem");
  rejectReadOnly(body, FS_READ_ONLY, "FileSystem");
  if (mode === "update" && "name" in body) {
    throw badRequest(
      "'name' must not be in the update body; select the file system with the 'name' parameter.",
    );
  }
  return parseBody(
    fileSystemBodySchema(req.version, mode),
    body,
    "FileSystem",
    req.version,
  ) as FileSystemBody;
}

export const createFileSystem: Handler = (req, state) => {
  const body = parseFsBody(req, "create");
  const name = body.name as string;
  const overwrite = req.query.bool("overwrite") === true;
  const existing = state.fileSystems.get(name);
  let sourceRef: FileSystemRec["source"] = null;
  if (body.source !== undefined) {
    const snap = state.snapshots.get(body.source.name);
    if (!snap || snap.destroyed)
      throw badRequest(`Snapshot '${body.source.name}' does not exist.`, body.source.name);
    sourceRef = { name: snap.name, id: snap.id, resource_type: "file-system-snapshots" };
  }
  if (existing && !(overwrite && sourceRef)) {
    throw badRequest(`File system '${name}' already exists.`, name);
  }
  if (existing) {
    // Restoring over an existing file system from its snapshot keeps its identity and settings.
    existing.source = sourceRef;
    return ok([renderer(req, state)(existing)]);
  }
  // 2.x attaches WORM data policies as the file system is created (`policy_names`); checked before it exists.
  const worm = wormPoliciesOnCreate(req, state);
  const fs = blankFileSystem(state.newId(), name, state.clock());
  fs.source = sourceRef;
  applyChanges(fs, body);
  state.fileSystems.set(name, fs);
  for (const policy of worm) applyWormPolicy(state, policy, fs);
  return ok([renderer(req, state)(fs)]);
};

/** Copies the writable fields of a validated body onto the record (no checks here: validate first). */
function applyChanges(fs: FileSystemRec, b: FileSystemBody): void {
  if (b.provisioned !== undefined) fs.provisioned = b.provisioned;
  if (b.hard_limit_enabled !== undefined) fs.hard_limit_enabled = b.hard_limit_enabled;
  if (b.fast_remove_directory_enabled !== undefined)
    fs.fast_remove_directory_enabled = b.fast_remove_directory_enabled;
  if (b.snapshot_directory_enabled !== undefined)
    fs.snapshot_directory_enabled = b.snapshot_directory_enabled;
  if (b.nfs) {
    // `enabled` is the deprecated NFSv3 switch; from 1.6 v3_enabled says the same thing explicitly.
    const v3 = b.nfs.v3_enabled ?? b.nfs.enabled;
    if (v3 !== undefined) fs.nfs.v3_enabled = v3;
    if (b.nfs.v4_1_enabled !== undefined) fs.nfs.v4_1_enabled = b.nfs.v4_1_enabled;
    if (b.nfs.rules !== undefined) fs.nfs.rules = b.nfs.rules;
  }
  if (b.http?.enabled !== undefined) fs.http.enabled = b.http.enabled;
  if (b.smb) {
    if (b.smb.enabled !== undefined) fs.smb.enabled = b.smb.enabled;
    const acl = b.smb.acl_mode ?? b.smb["acl-mode"];
    if (acl !== undefined) fs.smb.acl_mode = acl;
  }
  if (b.default_user_quota !== undefined) fs.default_user_quota = b.default_user_quota;
  if (b.default_group_quota !== undefined) fs.default_group_quota = b.default_group_quota;
  if (b.requested_promotion_state !== undefined) fs.requested_promotion_state = b.requested_promotion_state;
  if (b.writable !== undefined) fs.writable = b.writable;
  if (b.multi_protocol) Object.assign(fs.multi_protocol, b.multi_protocol);
}

function sizeOf(bytes: number): string {
  return `${bytes} bytes`;
}

/**
 * The hard-limit rule: an update may not leave a hard-limited file system using more than it is provisioned,
 * by shrinking it or by turning the limit on, unless the caller says ignore_usage=true.
 */
function checkHardLimit(fs: FileSystemRec, b: FileSystemBody, ignoreUsage: boolean): void {
  if (ignoreUsage) return;
  const provisioned = b.provisioned ?? fs.provisioned;
  const hard = b.hard_limit_enabled ?? fs.hard_limit_enabled;
  const usage = fs.space.virtual;
  if (!hard || provisioned === 0 || usage <= provisioned) return;
  const shrinks = b.provisioned !== undefined && (fs.provisioned === 0 || b.provisioned < fs.provisioned);
  const enables = b.hard_limit_enabled === true && !fs.hard_limit_enabled;
  if (!shrinks && !enables) return;
  throw badRequest(
    `File system '${fs.name}' uses ${sizeOf(usage)}, more than the ${sizeOf(provisioned)} it would be provisioned ` +
      "with a hard limit. Free space first, raise 'provisioned', or set ignore_usage=true to accept it.",
    fs.name,
  );
}

export const updateFileSystems: Handler = (req, state) => {
  const targets = selectByNameOrIds(req, state.fileSystems, "File system");
  const body = parseFsBody(req, "update");
  const ignoreUsage = req.query.bool("ignore_usage") === true;
  const flags: FileSystemFlags = {
    deleteLinkOnEradication: req.query.bool("delete_link_on_eradication") === true,
    discardNonSnapshottedData: req.query.bool("discard_non_snapshotted_data") === true,
  };
  paramSince(req, "discard_non_snapshotted_data", "1.9");
  paramSince(req, "delete_link_on_eradication", "1.9");
  // Validate every target before touching any, so a refused update changes nothing.
  const nfsRules = new Map<FileSystemRec, string>();
  for (const fs of targets) {
    if (fs.destroyed && body.destroyed !== false) {
      throw badRequest(
        `File system '${fs.name}' is destroyed; it can only be recovered (destroyed=false) or eradicated.`,
        fs.name,
      );
    }
    checkHardLimit(fs, body, ignoreUsage);
    if (body.destroyed === true && !fs.destroyed) checkDestroy(state, flags, fs, body);
    checkPromotion(state, flags, fs, body);
    if (body.nfs && (body.nfs.add_rules !== undefined || body.nfs.remove_rules !== undefined)) {
      nfsRules.set(fs, applyNfsRuleEdits(fs.name, body.nfs.rules ?? fs.nfs.rules, body.nfs));
    }
  }
  const now = state.clock();
  for (const fs of targets) {
    const wasDemoted = fs.requested_promotion_state === "demoted";
    applyChanges(fs, body);
    // A demoted file system is a replication target: not writable until it is promoted again.
    if (fs.requested_promotion_state === "demoted") fs.writable = false;
    else if (wasDemoted && body.writable === undefined) fs.writable = true;
    const rules = nfsRules.get(fs);
    if (rules !== undefined) fs.nfs.rules = rules;
    applyDestroyed(fs, body.destroyed, now);
  }
  return ok(targets.map(renderer(req, state)));
};

export const deleteFileSystems: Handler = (req, state) => {
  const targets = selectByNameOrIds(req, state.fileSystems, "File system");
  for (const fs of targets) {
    if (!fs.destroyed) {
      throw badRequest(
        `File system '${fs.name}' is not destroyed; destroy it (PATCH destroyed=true) before eradicating it.`,
        fs.name,
      );
    }
    checkRetained(state, fs);
  }
  for (const fs of targets) eradicateFileSystem(state, fs);
  return EMPTY;
};
