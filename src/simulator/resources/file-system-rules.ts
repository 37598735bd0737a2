/**
 * Rules real arrays keep when a file system is destroyed, demoted or made writable (FileSystemsApi and
 * FileSystem model docs of Pure's SDK; Ansible's purefb_fs and Pure's own test scripts for protocols).
 */
import type { FileSystemBody, FileSystemRec } from "../models/file-system.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";

/** The protocols that would still be on after `body` is applied. */
export function protocolsServing(fs: FileSystemRec, body: FileSystemBody): string[] {
  const v3 = body.nfs?.v3_enabled ?? body.nfs?.enabled ?? fs.nfs.v3_enabled;
  const v41 = body.nfs?.v4_1_enabled ?? fs.nfs.v4_1_enabled;
  const out: string[] = [];
  if (v3) out.push("NFSv3");
  if (v41) out.push("NFSv4.1");
  if (body.smb?.enabled ?? fs.smb.enabled) out.push("SMB");
  if (body.http?.enabled ?? fs.http.enabled) out.push("HTTP");
  return out;
}

function linksOf(state: SimState, fs: FileSystemRec) {
  return [...state.fileSystemReplicaLinks.values()].filter((l) => l.localFileSystem === fs.name);
}

/**
 * Destroying needs every protocol off (in the same PATCH, as Ansible sends it, or before), and with a replica
 * link `delete_link_on_eradication=true` ("If set to false, the file system cannot be destroyed if it has a
 * replica link").
 */
export function checkDestroy(
  state: SimState,
  req: SimRequest,
  fs: FileSystemRec,
  body: FileSystemBody,
): void {
  const serving = protocolsServing(fs, body);
  if (serving.length > 0) {
    throw badRequest(
      `File system '${fs.name}' still serves ${serving.join(", ")}; turn ${serving.length === 1 ? "it" : "them"} off (in the same request or before) to destroy it.`,
      fs.name,
    );
  }
  const links = linksOf(state, fs);
  if (links.length > 0 && req.query.bool("delete_link_on_eradication") !== true) {
    const remotes = links.map((l) => state.arrayConnections.get(l.remoteId)?.remote.name ?? l.remoteId);
    throw badRequest(
      `File system '${fs.name}' has a replica link to ${remotes.join(", ")}; destroy it with delete_link_on_eradication=true (the link goes when the file system is eradicated) or delete the link first.`,
      fs.name,
    );
  }
}

/**
 * Demotion is for replication targets: only with a replica link, and only with
 * discard_non_snapshotted_data=true (it restores the common baseline snapshot). A demoted file system cannot
 * be made writable.
 */
export function checkPromotion(
  state: SimState,
  req: SimRequest,
  fs: FileSystemRec,
  body: FileSystemBody,
): void {
  const demoting = body.requested_promotion_state === "demoted" && fs.requested_promotion_state !== "demoted";
  if (demoting) {
    if (linksOf(state, fs).length === 0)
      throw badRequest(
        `File system '${fs.name}' has no replica link; only a replica link's file system can be demoted.`,
        fs.name,
      );
    if (req.query.bool("discard_non_snapshotted_data") !== true)
      throw badRequest(
        `Demoting '${fs.name}' discards data written since its last replicated snapshot; send discard_non_snapshotted_data=true to accept that.`,
        fs.name,
      );
  }
  const demoted = (body.requested_promotion_state ?? fs.requested_promotion_state) === "demoted";
  if (demoted && body.writable === true)
    throw badRequest(`File system '${fs.name}' is demoted; promote it before making it writable.`, fs.name);
}
