/** /file-system-replica-links (1.9+): list and create; delete from 2.10, which 1.x lacks. */
import { z } from "zod";
import { bodyObject, parseBody, referenceByName } from "../models/body.js";
import { type FileSystemReplicaLinkRec, freshLinkHealth } from "../models/replication.js";
import { checkOneFsLinkPerRemote } from "../models/replication-rules.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { byId, EMPTY, exclusive, type Handler, listing, ok, resolveAll } from "./common.js";
import {
  fsLinkLag,
  health,
  linkSchedule,
  remoteRef,
  remoteSelectors,
  selectLinks,
  single,
} from "./link-common.js";

function renderFsLink(state: SimState, l: FileSystemReplicaLinkRec): Record<string, unknown> {
  const policies = state.policies;
  return {
    id: l.id,
    ...health(state, l, l.id, linkSchedule(state, l.policies), fsLinkLag(state, l)),
    local_file_system: {
      id: state.fileSystems.get(l.localFileSystem)?.id ?? "",
      name: l.localFileSystem,
      resource_type: "file-systems",
    },
    policies: l.policies.map((p) => ({
      name: p,
      id: policies.get(p)?.id ?? "",
      resource_type: "policies",
      is_local: true,
    })),
    remote: remoteRef(state.arrayConnections.get(l.remoteId)),
    remote_file_system: { name: l.remoteFileSystem, id: null },
  };
}

function selectFsLinks(req: SimRequest, state: SimState, required: boolean): FileSystemReplicaLinkRec[] {
  exclusive(req, "local_file_system_ids", "local_file_system_names");
  exclusive(req, "remote_ids", "remote_names");
  const { links, selected } = selectLinks(
    req,
    state.fileSystemReplicaLinks.values(),
    [
      ["ids", (l, v) => l.id === v],
      ["local_file_system_names", (l, v) => l.localFileSystem === v],
      ["local_file_system_ids", (l, v) => state.fileSystems.get(l.localFileSystem)?.id === v],
      ["remote_file_system_names", (l, v) => l.remoteFileSystem === v],
      ...remoteSelectors<FileSystemReplicaLinkRec>(state),
    ],
    "file system replica link",
  );
  if (required && !selected)
    throw badRequest(
      "Select links with local_file_system_names/ids, remote_file_system_names or remote_names/ids.",
    );
  return links;
}

export const listFileSystemReplicaLinks: Handler = (req, state) =>
  listing(
    selectFsLinks(req, state, false).map((l) => renderFsLink(state, l)),
    req,
    { nameParams: [] },
  );

/** The link goes, and with it its policy attachments (they live on the link); the file systems stay. */
export const deleteFileSystemReplicaLinks: Handler = (req, state) => {
  for (const l of selectFsLinks(req, state, true)) state.fileSystemReplicaLinks.delete(l.id);
  return EMPTY;
};

export const createFileSystemReplicaLinks: Handler = (req, state) => {
  exclusive(req, "local_file_system_ids", "local_file_system_names");
  exclusive(req, "remote_ids", "remote_names");
  const fsIds = req.query.list("local_file_system_ids")?.filter((s) => s !== "");
  const fs = fsIds?.length
    ? resolveAll(fsIds, (i) => byId(state.fileSystems.values()).get(i), "File system with id")[0]
    : resolveAll([single(req, "local_file_system_names")], (n) => state.fileSystems.get(n), "File system")[0];
  if (!fs) throw badRequest("'local_file_system_names' is required.");
  if (fs.destroyed) throw badRequest(`File system '${fs.name}' is destroyed.`, fs.name);
  const remoteIds = req.query.list("remote_ids")?.filter((s) => s !== "");
  const all = [...state.arrayConnections.values()];
  const conn = remoteIds?.length
    ? resolveAll(remoteIds, (i) => all.find((c) => c.remote.id === i), "Array connection to remote id")[0]
    : resolveAll(
        [single(req, "remote_names")],
        (n) => all.find((c) => c.remote.name === n),
        "Array connection to",
      )[0];
  if (!conn) throw badRequest("'remote_names' is required.");
  const remoteFs = req.query.list("remote_file_system_names")?.[0] ?? fs.name;
  const body = bodyObject(req, "FileSystemReplicaLink", true);
  const policyRefs =
    parseBody(
      z.looseObject({ policies: z.array(referenceByName).optional() }),
      body,
      "FileSystemReplicaLink",
      req.version,
    ).policies ?? [];
  const policies = resolveAll(
    policyRefs.map((p) => p.name),
    (n) => state.policies.get(n),
    "Policy",
  ).map((p) => p.name);
  checkOneFsLinkPerRemote(state, fs.name, conn);
  const link: FileSystemReplicaLinkRec = {
    id: state.newId(),
    localFileSystem: fs.name,
    remoteId: conn.id,
    remoteFileSystem: remoteFs,
    policies,
    ...freshLinkHealth(),
  };
  state.fileSystemReplicaLinks.set(link.id, link);
  return ok([renderFsLink(state, link)]);
};

/**
 * PATCH (2.17+) takes no body: `replicate_now=true` sends a snapshot to the target at once. The array refuses it
 * without the parameter, on the target's side of a link (inbound: the source replicates) and on a paused link.
 */
export const updateFileSystemReplicaLinks: Handler = (req, state) => {
  if (req.query.bool("replicate_now") !== true)
    throw badRequest("Nothing to change: give 'replicate_now=true' to replicate now.", "replicate_now");
  const links = selectFsLinks(req, state, true);
  for (const l of links) {
    if (l.direction === "inbound")
      throw badRequest(
        `File system replica link '${l.localFileSystem}' is inbound; replicate from its source array.`,
        l.localFileSystem,
      );
    if (l.paused)
      throw badRequest(
        `File system replica link '${l.localFileSystem}' is paused; resume it first.`,
        l.localFileSystem,
      );
  }
  return ok(links.map((l) => renderFsLink(state, l)));
};
