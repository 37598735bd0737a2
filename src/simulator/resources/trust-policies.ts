/**
 * Uploading a role's trust policy as an IAM document (2.17+): PATCH `/object-store-roles/object-store-trust-
 * policies/upload` with `names` (the policies) or `role_names`/`role_ids` (their roles), the body a trust
 * document `{Version?, Statement: [{Effect: "Allow", Principal: {Federated}, Action, Condition?}]}`. The document
 * replaces every rule of each policy: one rule per statement, named `<policy>.<n>` in order, in the generic rules
 * collection the rule verbs read. The SDK sends the document as a JSON string; either form is read.
 */
import type { Json } from "../models/body.js";
import type { SimState } from "../state.js";
import type { SimRequest } from "../types.js";
import { badRequest } from "../types.js";
import { type Handler, ok } from "./common.js";
import { type Rec, records, refOf } from "./family-store.js";

const POLICIES = "/object-store-roles/object-store-trust-policies";
const RULES = `${POLICIES}/rules`;
const MODEL = "ObjectStoreTrustPolicyIam";

function documentOf(req: SimRequest): Json {
  let body: unknown = req.body;
  if (typeof body === "string") {
    try {
      body = JSON.parse(body) as unknown;
    } catch {
      throw badRequest(`The body must be a JSON ${MODEL} document.`);
    }
  }
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw badRequest(`The body must be a JSON ${MODEL} document.`);
  return body as Json;
}

const listOf = (v: unknown): string[] =>
  Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)];

/** One rule per statement, as the array lists them: allow, its actions, its principals, its conditions. */
function rulesOf(doc: Json, policy: Rec): Json[] {
  const statements = doc["Statement"];
  if (!Array.isArray(statements) || statements.length === 0)
    throw badRequest(`${MODEL} needs a non-empty 'Statement' list.`);
  return statements.map((raw, i) => {
    const st = (raw ?? {}) as Json;
    if (st["Effect"] !== "Allow")
      throw badRequest(`Statement ${i + 1}: a trust policy only allows ('Effect': 'Allow').`);
    const principals = listOf((st["Principal"] as Json | undefined)?.["Federated"]);
    const actions = listOf(st["Action"]);
    if (principals.length === 0)
      throw badRequest(`Statement ${i + 1} names no 'Principal' {'Federated': …}.`);
    if (actions.length === 0) throw badRequest(`Statement ${i + 1} names no 'Action'.`);
    const conditions = Object.entries((st["Condition"] ?? {}) as Json).flatMap(([operator, keys]) =>
      Object.entries((keys ?? {}) as Json).map(([key, values]) => ({
        operator,
        key,
        values: listOf(values),
      })),
    );
    const index = i + 1;
    return {
      name: `${policy.name}.${index}`,
      id: `${policy.id}-rule-${index}`,
      index,
      effect: "allow",
      actions,
      principals: principals.map((name) => ({ name })),
      conditions,
      policy: refOf(policy, "object-store-trust-policies"),
    };
  });
}

function policiesOf(req: SimRequest, state: SimState): Rec[] {
  const all = [...records(state, POLICIES).values()];
  const names = req.query.list("names")?.filter(Boolean);
  const roles = req.query.list("role_names")?.filter(Boolean);
  const roleIds = req.query.list("role_ids")?.filter(Boolean);
  if (roles?.length && roleIds?.length)
    throw badRequest("'role_names' and 'role_ids' cannot be used together.");
  const wanted: [string[] | undefined, (p: Rec) => string | undefined, string][] = [
    [names, (p) => p.name, "Trust policy"],
    [roles, (p) => (p["role"] as Json | undefined)?.["name"] as string | undefined, "Trust policy of role"],
    [
      roleIds,
      (p) => (p["role"] as Json | undefined)?.["id"] as string | undefined,
      "Trust policy of role id",
    ],
  ];
  const given = wanted.filter(([w]) => w?.length);
  if (given.length === 0) throw badRequest("'names', 'role_names' or 'role_ids' is required.");
  return all.filter((p) =>
    given.every(([w, key, what]) => {
      for (const n of w ?? [])
        if (!all.some((q) => key(q) === n)) throw badRequest(`${what} '${n}' does not exist.`, n);
      return (w ?? []).includes(key(p) ?? "");
    }),
  );
}

const upload: Handler = (req, state) => {
  const doc = documentOf(req);
  const policies = policiesOf(req, state);
  const made = policies.map((p) => [p, rulesOf(doc, p)] as const);
  const rules = records(state, RULES);
  for (const [p, list] of made) {
    for (const [key, r] of rules)
      if ((r["policy"] as Json | undefined)?.["name"] === p.name) rules.delete(key);
    for (const r of list) rules.set(r["name"] as string, r as Rec);
    p["rules"] = list;
  }
  return ok(policies);
};

export const TRUST_POLICY_ROUTES = { [`${POLICIES}/upload`]: { PATCH: upload } };
