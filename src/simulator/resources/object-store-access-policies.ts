/**
 * /object-store-access-policies (1.12): the built-in `pure:policy/…` policies, and the users attached to them
 * through /object-store-access-policies/object-store-users and its mirror /object-store-users/object-store-
 * access-policies (the same pairs, selected by policy_names/ids and member_names/ids). Policies of an account and
 * their rules (2.x only) are in object-store-access-policy-rules.ts.
 */

import { generationOf } from "../../rest-spec/versions.js";
import type { AccessPolicyRec, ObjectUserRec } from "../models/object-store.js";
import { BUILT_IN_ACCESS_POLICIES } from "../models/object-store.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { EMPTY, type Handler, listing, ok, pickMembership, preselect } from "./common.js";
import { policyDetails } from "./object-store-access-policy-rules.js";

export function seedAccessPolicies(state: SimState): void {
  for (const name of BUILT_IN_ACCESS_POLICIES)
    state.accessPolicies.set(name, { id: state.newId(), name, members: new Set(), rules: [] });
}

export const listAccessPolicies: Handler = (req, state) => {
  const all = state.accessPolicies;
  // An account's own policies came with REST 2.2: a 1.x client sees the built-in ones only.
  const items = [...preselect(req, all, () => all.values())]
    .filter((p) => p.account === undefined || generationOf(req.version) === 2)
    .map((p) => ({
      name: p.name,
      id: p.id,
      ...policyDetails(req, state, p),
    }));
  return listing(items, req, { noun: "Object store access policy" });
};

function pair(p: AccessPolicyRec, u: ObjectUserRec) {
  return {
    policy: { name: p.name, id: p.id, resource_type: "object-store-access-policies" },
    member: { name: u.name, id: u.id, resource_type: "object-store-users" },
  };
}

export const listPolicyUsers: Handler = (req, state) => {
  const policies = pickMembership(req, "policy", state.accessPolicies, "Object store access policy") ?? [
    ...state.accessPolicies.values(),
  ];
  const users = pickMembership(req, "member", state.objectUsers, "Object store user");
  const wanted = users && new Set(users.map((u) => u.name));
  const out = [];
  for (const p of policies) {
    for (const m of p.members) {
      const u = state.objectUsers.get(m);
      if (u && (!wanted || wanted.has(m))) out.push(pair(p, u));
    }
  }
  return listing(out, req, { nameParams: [] });
};

function both(req: SimRequest, state: SimState) {
  const policies = pickMembership(req, "policy", state.accessPolicies, "Object store access policy");
  const users = pickMembership(req, "member", state.objectUsers, "Object store user");
  if (!policies) throw badRequest("'policy_names' or 'policy_ids' is required.");
  if (!users) throw badRequest("'member_names' or 'member_ids' is required.");
  return { policies, users };
}

export const addPolicyUsers: Handler = (req, state) => {
  const { policies, users } = both(req, state);
  for (const p of policies)
    for (const u of users)
      if (p.members.has(u.name))
        throw badRequest(`Object store user '${u.name}' already has policy '${p.name}'.`, u.name);
  for (const p of policies) for (const u of users) p.members.add(u.name);
  return ok(policies.flatMap((p) => users.map((u) => pair(p, u))));
};

export const removePolicyUsers: Handler = (req, state) => {
  const { policies, users } = both(req, state);
  for (const p of policies)
    for (const u of users)
      if (!p.members.has(u.name))
        throw badRequest(`Object store user '${u.name}' does not have policy '${p.name}'.`, u.name);
  for (const p of policies) for (const u of users) p.members.delete(u.name);
  return EMPTY;
};
