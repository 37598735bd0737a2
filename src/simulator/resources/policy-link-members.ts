/**
 * Policies on file system replica links (1.9+): /policies/file-system-replica-links and
 * /file-system-replica-links/policies, the same pairs seen from either side, kept in each link's `policies`.
 */
import type { FileSystemReplicaLinkRec } from "../models/replication.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { byId, EMPTY, exclusive, type Handler, listing, ok, resolveAll } from "./common.js";
import { remoteRef, remoteSelectors, selectLinks } from "./link-common.js";

function links(req: SimRequest, state: SimState): FileSystemReplicaLinkRec[] {
  exclusive(req, "local_file_system_ids", "local_file_system_names");
  exclusive(req, "remote_ids", "remote_names");
  return selectLinks(
    req,
    state.fileSystemReplicaLinks.values(),
    [
      ["local_file_system_names", (l, v) => l.localFileSystem === v],
      ["local_file_system_ids", (l, v) => state.fileSystems.get(l.localFileSystem)?.id === v],
      ["member_ids", (l, v) => l.id === v],
      ["remote_file_system_names", (l, v) => l.remoteFileSystem === v],
      ...remoteSelectors<FileSystemReplicaLinkRec>(state),
    ],
    "file system replica link",
  ).links;
}

function policiesOf(req: SimRequest, state: SimState): string[] | undefined {
  exclusive(req, "policy_names", "policy_ids");
  const names = req.query.list("policy_names")?.filter((s) => s !== "");
  if (names?.length) return resolveAll(names, (n) => state.policies.get(n), "Policy").map((p) => p.name);
  const ids = req.query.list("policy_ids")?.filter((s) => s !== "");
  if (ids?.length) {
    const index = byId(state.policies.values());
    return resolveAll(ids, (i) => index.get(i), "Policy with id").map((p) => p.name);
  }
  return undefined;
}

function render(state: SimState, policy: string, l: FileSystemReplicaLinkRec) {
  const fsId = state.fileSystems.get(l.localFileSystem)?.id ?? "";
  const remote = remoteRef(state.arrayConnections.get(l.remoteId));
  return {
    policy: { name: policy, id: state.policies.get(policy)?.id ?? "", resource_type: "policies" },
    member: { name: l.localFileSystem, id: l.id, resource_type: "file-system-replica-links" },
    link: {
      local_file_system: { name: l.localFileSystem, id: fsId, resource_type: "file-systems" },
      remote,
      remote_file_system: { name: l.remoteFileSystem, id: null },
    },
  };
}

export const listPolicyReplicaLinks: Handler = (req, state) => {
  const wanted = policiesOf(req, state);
  const items = links(req, state).flatMap((l) =>
    l.policies.filter((p) => !wanted || wanted.includes(p)).map((p) => render(state, p, l)),
  );
  return listing(items, req, { nameParams: [] });
};

function target(req: SimRequest, state: SimState): { policies: string[]; links: FileSystemReplicaLinkRec[] } {
  const policies = policiesOf(req, state);
  if (!policies) throw badRequest("'policy_names' or 'policy_ids' is required.");
  const hasLink = ["local_file_system_names", "local_file_system_ids", "member_ids"].some((p) =>
    req.query.has(p),
  );
  if (!hasLink)
    throw badRequest("'local_file_system_names', 'local_file_system_ids' or 'member_ids' is required.");
  return { policies, links: links(req, state) };
}

export const addPolicyReplicaLinks: Handler = (req, state) => {
  const { policies, links: found } = target(req, state);
  for (const l of found) {
    for (const p of policies) {
      if (l.policies.includes(p))
        throw badRequest(
          `Policy '${p}' is already attached to the replica link of '${l.localFileSystem}'.`,
          p,
        );
    }
  }
  for (const l of found) l.policies.push(...policies);
  return ok(found.flatMap((l) => policies.map((p) => render(state, p, l))));
};

export const removePolicyReplicaLinks: Handler = (req, state) => {
  const { policies, links: found } = target(req, state);
  for (const l of found) {
    for (const p of policies) {
      if (!l.policies.includes(p))
        throw badRequest(`Policy '${p}' is not attached to the replica link of '${l.localFileSystem}'.`, p);
    }
  }
  for (const l of found) l.policies = l.policies.filter((p) => !policies.includes(p));
  return EMPTY;
};
