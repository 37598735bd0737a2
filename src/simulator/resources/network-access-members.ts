/**
 * `/network-access-policies/members` (2.x): the array is the one member of its network access policy, the built-in
 * `default` (export-policies.ts seeds it; arrays have no other), so the membership is derived, never stored: a
 * policy or member the array does not have is refused as any other membership's.
 */
import type { SimState } from "../state.js";
import { type Handler, listing, pickMembership } from "./common.js";
import { arrayRef, type Rec, records, refOf } from "./family-store.js";

const POLICIES = "/network-access-policies";

const listMembers: Handler = (req, state: SimState) => {
  const policies = pickMembership(req, "policy", records(state, POLICIES), "Network access policy") ?? [
    ...records(state, POLICIES).values(),
  ];
  // The member side names the array or nothing: anything else is refused (400), as an unknown policy is.
  const self = { name: state.array.name, id: state.array.id };
  pickMembership(req, "member", new Map([[self.name, self]]), "Array");
  const rows = policies.map((p: Rec) => ({
    policy: refOf(p, "network-access-policies"),
    member: arrayRef(state),
  }));
  return listing(rows, req, { noun: "Network access policy member", nameParams: [] });
};

export const NETWORK_ACCESS_MEMBER_ROUTES = { [`${POLICIES}/members`]: { GET: listMembers } };
