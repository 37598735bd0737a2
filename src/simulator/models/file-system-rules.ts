/**
 * The rules of a file system: what arrays refuse when one is destroyed, demoted or made writable (FileSystemsApi
 * and FileSystem model docs of Pure's SDK; Ansible's purefb_fs and Pure's own test scripts for protocols). The
 * PATCH handler and the check of seeded state (state-rules.ts) both ask here, so "can a file system with a
 * replica link be destroyed?" has one answer: only with delete_link_on_eradication=true.
 */
import { checkRetained } from "../resources/file-system-families.js";
import type { SimState } from "../state.js";
import { badRequest } from "../types.js";
import type { FileSystemBody, FileSystemRec } from "./file-system.js";

/** The query flags of a file system PATCH that these rules read. */
export interface FileSystemFlags {
  deleteLinkOnEradication: boolean;
  discardNonSnapshottedData: boolean;
}

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
  flags: Pick<FileSystemFlags, "deleteLinkOnEradication">,
  fs: FileSystemRec,
  body: FileSystemBody,
): void {
  // Retention and legal holds first: no change to the request makes those go away.
  checkRetained(state, fs);
  const serving = protocolsServing(fs, body);
  if (serving.length > 0) {
    throw badRequest(
      `File system '${fs.name}' still serves ${serving.join(", ")}; turn ${serving.length === 1 ? "it" : "them"} off (in the same request or before) to destroy it.`,
      fs.name,
    );
  }
  const links = linksOf(state, fs);
  if (links.length > 0 && !flags.deleteLinkOnEradication) {
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
  flags: Pick<FileSystemFlags, "discardNonSnapshottedData">,
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
    if (!flags.discardNonSnapshottedData)
      throw badRequest(
        `Demoting '${fs.name}' discards data written since its last replicated snapshot; send discard_non_snapshotted_data=true to accept that.`,
        fs.name,
      );
  }
  const demoted = (body.requested_promotion_state ?? fs.requested_promotion_state) === "demoted";
  if (demoted && body.writable === true)
    throw badRequest(`File system '${fs.name}' is demoted; promote it before making it writable.`, fs.name);
}

/**
 * A stored file system as the requests that made it would have met these rules: a destroyed one was destroyed
 * (links allowed: they go at eradication), a demoted one was demoted, with the flags a client would send.
 */
export function checkFileSystemStands(state: SimState, fs: FileSystemRec): void {
  const flags = { deleteLinkOnEradication: true, discardNonSnapshottedData: true };
  if (fs.destroyed) checkDestroy(state, flags, fs, { destroyed: true });
  if (fs.requested_promotion_state === "demoted") {
    const before: FileSystemRec = { ...fs, requested_promotion_state: "promoted" };
    checkPromotion(state, flags, before, { requested_promotion_state: "demoted", writable: fs.writable });
  }
}
