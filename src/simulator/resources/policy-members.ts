/**
 * Policy membership: /policies/file-systems and /file-systems/policies (the same pairs seen from either side),
 * /policies/members, and the snapshot ↔ policy pairs of /policies/file-system-snapshots.
 */
import type { FileSystemRec } from "../models/file-system.js";
import { ref } from "../models/object-store.js";
import type { PolicyRec } from "../models/policy.js";
import type { SnapshotRec } from "../models/snapshot.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { byId, EMPTY, type Handler, listing, ok, pickMembership } from "./common.js";

interface Pair {
  policy: PolicyRec;
  fs: FileSystemRec;
}

function pairs(state: SimState, req: SimRequest): Pair[] {
  const policies = pickMembership(req, "policy", state.policies, "Policy") ?? [...state.policies.values()];
  const members = pickMembership(req, "member", state.fileSystems, "File system");
  const memberSet = members && new Set(members.map((m) => m.name));
  const out: Pair[] = [];
  for (const policy of policies) {
    for (const name of policy.members) {
      const fs = state.fileSystems.get(name);
      if (fs && (!memberSet || memberSet.has(name))) out.push({ policy, fs });
    }
  }
  return out;
}

function renderPair({ policy, fs }: Pair) {
  return { policy: ref(policy.name, policy.id, "policies"), member: ref(fs.name, fs.id, "file-systems") };
}

export const listPolicyFileSystems: Handler = (req, state) => {
  const types = req.query.list("member_types");
  if (types && !types.includes("file-systems")) return listing([], req, { nameParams: [] });
  return listing(pairs(state, req).map(renderPair), req, { nameParams: [] });
};

export const addPolicyFileSystems: Handler = (req, state) => {
  const policies = pickMembership(req, "policy", state.policies, "Policy");
  const members = pickMembership(req, "member", state.fileSystems, "File system");
  if (!policies) throw badRequest("'policy_names' or 'policy_ids' is required.");
  if (!members) throw badRequest("'member_names' or 'member_ids' is required.");
  for (const p of policies) {
    for (const fs of members) {
      if (fs.destroyed) throw badRequest(`File system '${fs.name}' is destroyed.`, fs.name);
      if (p.members.has(fs.name))
        throw badRequest(`File system '${fs.name}' is already a member of policy '${p.name}'.`, fs.name);
    }
  }
  const added: Pair[] = [];
  for (const policy of policies) {
    for (const fs of members) {
      policy.members.add(fs.name);
      added.push({ policy, fs });
    }
  }
  return ok(added.map(renderPair));
};

export const removePolicyFileSystems: Handler = (req, state) => {
  const policies = pickMembership(req, "policy", state.policies, "Policy");
  const members = pickMembership(req, "member", state.fileSystems, "File system");
  if (!policies || !members)
    throw badRequest(
      "Both a policy (policy_names/policy_ids) and members (member_names/member_ids) are required.",
    );
  for (const p of policies) {
    for (const fs of members) {
      if (!p.members.has(fs.name))
        throw badRequest(`File system '${fs.name}' is not a member of policy '${p.name}'.`, fs.name);
    }
  }
  for (const p of policies) for (const fs of members) p.members.delete(fs.name);
  return EMPTY;
};

function snapshotPairs(state: SimState, req: SimRequest): { policy: PolicyRec; snap: SnapshotRec }[] {
  const policies = pickMembership(req, "policy", state.policies, "Policy");
  const members = pickMembership(req, "member", state.snapshots, "Snapshot");
  const policyIds = policies && new Set(policies.map((p) => p.id));
  const byPolicyId = byId(state.policies.values());
  const out: { policy: PolicyRec; snap: SnapshotRec }[] = [];
  for (const snap of members ?? state.snapshots.values()) {
    const policy = snap.policy && byPolicyId.get(snap.policy.id);
    if (policy && (!policyIds || policyIds.has(policy.id))) out.push({ policy, snap });
  }
  return out;
}

export const listPolicySnapshots: Handler = (req, state) =>
  listing(
    snapshotPairs(state, req).map(({ policy, snap }) => ({
      policy: ref(policy.name, policy.id, "policies"),
      member: ref(snap.name, snap.id, "file-system-snapshots"),
    })),
    req,
    { nameParams: [] },
  );

/** Detaches snapshots from their policy, so the policy no longer expires them. */
export const removePolicySnapshots: Handler = (req, state) => {
  if (!req.query.has("member_names") && !req.query.has("member_ids")) {
    throw badRequest("'member_names' or 'member_ids' is required.");
  }
  const found = snapshotPairs(state, req);
  const members = pickMembership(req, "member", state.snapshots, "Snapshot") ?? [];
  for (const m of members) {
    if (!found.some((f) => f.snap === m))
      throw badRequest(`Snapshot '${m.name}' is not managed by that policy.`, m.name);
  }
  for (const { snap } of found) snap.policy = null;
  return EMPTY;
};
