/**
 * /policies/file-system-replica-links and its mirror /file-system-replica-links/policies (1.9+): the snapshot
 * policies that drive a file system replica link. Pairs are selected by policy_names/ids, by the link's
 * local file system (local_file_system_names/ids, or member_ids) and by its remote (remote_names/ids).
 */
import type { FileSystemReplicaLinkRec } from "../models/replication.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { byId, EMPTY, exclusive, type Handler, listing, ok, resolveAll } from "./common.js";
import { remoteRef } from "./link-common.js";

function list(req: SimRequest, param: string): string[] | undefined {
  const v = req.query.list(param)?.filter((s) => s !== "");
  return v?.length ? v : undefined;
}

function policiesOf(req: SimRequest, state: SimState) {
  exclusive(req, "policy_names", "policy_ids");
  const names = list(req, "policy_names");
  if (names) return resolveAll(names, (n) => state.policies.get(n), "Policy");
  const ids = list(req, "policy_ids");
  if (ids) return resolveAll(ids, (i) => byId(state.policies.values()).get(i), "Policy with id");
  return undefined;
}

/** The links the local file system and remote selectors pick; every value must name something real. */
function linksOf(req: SimRequest, state: SimState): FileSystemReplicaLinkRec[] | undefined {
  exclusive(req, "local_file_system_names", "local_file_system_ids");
  exclusive(req, "remote_names", "remote_ids");
  const fsNames = list(req, "local_file_system_names");
  const fsIds = list(req, "local_file_system_ids") ?? list(req, "member_ids");
  const fss = fsNames
    ? resolveAll(fsNames, (n) => state.fileSystems.get(n), "File system")
    : fsIds && resolveAll(fsIds, (i) => byId(state.fileSystems.values()).get(i), "File system with id");
  const conns = [...state.arrayConnections.values()];
  const remoteNames = list(req, "remote_names");
  const remoteIds = list(req, "remote_ids");
  const remotes = remoteNames
    ? resolveAll(remoteNames, (n) => conns.find((c) => c.remote.name === n), "Array connection to")
    : remoteIds &&
      resolveAll(remoteIds, (i) => conns.find((c) => c.remote.id === i), "Array connection to remote id");
  if (!fss && !remotes) return undefined;
  const fsSet = fss && new Set(fss.map((f) => f.name));
  const remoteSet = remotes && new Set(remotes.map((c) => c.id));
  return [...state.fileSystemReplicaLinks.values()].filter(
    (l) => (!fsSet || fsSet.has(l.localFileSystem)) && (!remoteSet || remoteSet.has(l.remoteId)),
  );
}

function render(state: SimState, policyName: string, l: FileSystemReplicaLinkRec) {
  const p = state.policies.get(policyName);
  const fs = state.fileSystems.get(l.localFileSystem);
  const local = { name: l.localFileSystem, id: fs?.id ?? "", resource_type: "file-systems" };
  return {
    policy: { name: policyName, id: p?.id ?? "", resource_type: "policies" },
    member: local,
    link: {
      local_file_system: local,
      remote: remoteRef(state.arrayConnections.get(l.remoteId)),
      remote_file_system: { name: l.remoteFileSystem, id: null },
    },
  };
}

export const listReplicaLinkPolicies: Handler = (req, state) => {
  const policies = policiesOf(req, state);
  const wanted = policies && new Set(policies.map((p) => p.name));
  const remoteFs = list(req, "remote_file_system_names");
  const links = (linksOf(req, state) ?? [...state.fileSystemReplicaLinks.values()]).filter(
    (l) => !remoteFs || remoteFs.includes(l.remoteFileSystem),
  );
  const out = links.flatMap((l) =>
    l.policies.filter((p) => !wanted || wanted.has(p)).map((p) => render(state, p, l)),
  );
  return listing(out, req, { nameParams: [] });
};

function both(req: SimRequest, state: SimState) {
  const policies = policiesOf(req, state);
  if (!policies) throw badRequest("'policy_names' or 'policy_ids' is required.");
  const links = linksOf(req, state);
  if (!links)
    throw badRequest("'local_file_system_names' (or its ids) and 'remote_names' (or its ids) are required.");
  if (links.length === 0)
    throw badRequest("No file system replica link matches the local file system and remote given.");
  return { policies, links };
}

export const addReplicaLinkPolicies: Handler = (req, state) => {
  const { policies, links } = both(req, state);
  for (const l of links)
    for (const p of policies)
      if (l.policies.includes(p.name))
        throw badRequest(
          `Policy '${p.name}' already drives the replica link of '${l.localFileSystem}'.`,
          p.name,
        );
  for (const l of links) l.policies.push(...policies.map((p) => p.name));
  return ok(links.flatMap((l) => policies.map((p) => render(state, p.name, l))));
};

export const removeReplicaLinkPolicies: Handler = (req, state) => {
  const { policies, links } = both(req, state);
  for (const l of links)
    for (const p of policies)
      if (!l.policies.includes(p.name))
        throw badRequest(`Policy '${p.name}' is not on the replica link of '${l.localFileSystem}'.`, p.name);
  const gone = new Set(policies.map((p) => p.name));
  for (const l of links) l.policies = l.policies.filter((p) => !gone.has(p));
  return EMPTY;
};
