/**
 * REST 2.x's own object store access policies (2.2+; 1.x only lists the built-in ones): an account's policy
 * (`account/policy`) made with its rules, the rules changed one by one through /object-store-access-policies/rules,
 * and deleted. The rules live on the policy record, so a policy's `rules` and the rules listing agree.
 */
import { z } from "zod";
import { bodyObject, parseBody } from "../models/body.js";
import type { AccessPolicyRec, AccessRuleRec } from "../models/object-store.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { at, EMPTY, type Handler, listing, ok, pickMembership, requireList, resolveAll } from "./common.js";

const ruleFields = z.strictObject({
  actions: z.array(z.string().regex(/^s3:[A-Za-z*]+$/, "an action is 's3:<Action>' or 's3:*'")).min(1),
  effect: z.enum(["allow", "deny"]).optional(),
  resources: z.array(z.string().min(1)).min(1),
  conditions: z.record(z.string(), z.unknown()).optional(),
});
const bulkRule = ruleFields.extend({ name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/) });
const policyPost = z.strictObject({
  description: z.string().optional(),
  rules: z.array(bulkRule).optional(),
});
const policyPatch = z.strictObject({ rules: z.array(bulkRule).optional() });

export function renderRule(p: AccessPolicyRec, r: AccessRuleRec): Record<string, unknown> {
  return {
    name: r.name,
    actions: r.actions,
    effect: r.effect,
    resources: r.resources,
    ...(r.conditions ? { conditions: r.conditions } : {}),
    policy: { name: p.name, id: p.id, resource_type: "object-store-access-policies" },
  };
}

/**
 * The fields 2.2 added, for an account's own policy (1.x and 2.0–2.1 list name and id only). Built-in policies
 * keep name and id on 2.x too: the simulator does not model their statements, and their cards stay the same on
 * both generations.
 */
export function policyDetails(req: SimRequest, state: SimState, p: AccessPolicyRec): Record<string, unknown> {
  if (!at(req, "2.2") || p.account === undefined) return {};
  const account = p.account === undefined ? undefined : state.accounts.get(p.account);
  return {
    ...(account
      ? { account: { name: account.name, id: account.id, resource_type: "object-store-accounts" } }
      : {}),
    description: p.description ?? null,
    enabled: true,
    is_local: true,
    policy_type: "object-store-access",
    created: p.created ?? null,
    rules: p.rules.map((r) => renderRule(p, r)),
  };
}

function toRules(rules: z.infer<typeof bulkRule>[] | undefined): AccessRuleRec[] {
  const out = (rules ?? []).map(({ name, effect, ...rest }) => ({
    name,
    effect: effect ?? "allow",
    ...rest,
  }));
  const seen = new Set<string>();
  for (const r of out) {
    if (seen.has(r.name)) throw badRequest(`Rule '${r.name}' is given twice.`, r.name);
    seen.add(r.name);
  }
  return out;
}

/** Bucket-level actions: on a resource that names objects (`bucket/key`) the array ignores them. */
const BUCKET_ACTION = /^s3:(ListBucket\w*|CreateBucket|DeleteBucket|GetBucket\w*|PutBucket\w*)$/;

/**
 * With `enforce_action_restrictions=true` the array refuses a rule it would partly ignore (a bucket action on
 * object resources) instead of keeping it as given.
 */
function enforceActions(
  req: SimRequest,
  rules: readonly { actions?: string[]; resources?: string[] }[],
): void {
  if (req.query.bool("enforce_action_restrictions") !== true) return;
  for (const r of rules) {
    const action = r.actions?.find((a) => BUCKET_ACTION.test(a));
    const objects = r.resources?.find((x) => x.includes("/"));
    if (action && objects)
      throw badRequest(
        `Action '${action}' applies to buckets and is ignored on object resource '${objects}'.`,
        "enforce_action_restrictions",
      );
  }
}

/** Built-in policies are the array's own: listed and attached, never changed. */
function ownPolicy(p: AccessPolicyRec): AccessPolicyRec {
  if (p.account === undefined)
    throw badRequest(`Object store access policy '${p.name}' is built in and cannot be changed.`, p.name);
  return p;
}

export const createAccessPolicies: Handler = (req, state) => {
  const body = parseBody(
    policyPost,
    bodyObject(req, "ObjectStoreAccessPolicyPost", true),
    "ObjectStoreAccessPolicyPost",
    req.version,
  );
  enforceActions(req, body.rules ?? []);
  const made = requireList(req, "names").map((name) => {
    const [account, policy, extra] = name.split("/");
    if (!account || !policy || extra !== undefined || !/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(policy))
      throw badRequest(`'${name}' is not an access policy name: give 'account/policy'.`, name);
    if (!state.accounts.has(account))
      throw badRequest(`Object store account '${account}' does not exist.`, account);
    if (state.accessPolicies.has(name))
      throw badRequest(`Object store access policy '${name}' already exists.`, name);
    return {
      id: state.newId(),
      name,
      account,
      description: body.description,
      created: state.clock(),
      members: new Set<string>(),
      rules: toRules(body.rules),
    };
  });
  for (const p of made) state.accessPolicies.set(p.name, p);
  return ok(made.map((p) => ({ name: p.name, id: p.id, ...policyDetails(req, state, p) })));
};

function named(req: SimRequest, state: SimState): AccessPolicyRec[] {
  return resolveAll(
    requireList(req, "names"),
    (n) => state.accessPolicies.get(n),
    "Object store access policy",
  );
}

export const updateAccessPolicies: Handler = (req, state) => {
  const body = parseBody(
    policyPatch,
    bodyObject(req, "ObjectStoreAccessPolicyPatch"),
    "ObjectStoreAccessPolicyPatch",
    req.version,
  );
  const policies = named(req, state).map(ownPolicy);
  // Without new rules the policy's own are checked: a PATCH with the parameter alone asks whether they pass.
  for (const p of policies) enforceActions(req, body.rules ?? p.rules);
  if (body.rules) for (const p of policies) p.rules = toRules(body.rules);
  return ok(policies.map((p) => ({ name: p.name, id: p.id, ...policyDetails(req, state, p) })));
};

export const deleteAccessPolicies: Handler = (req, state) => {
  const policies = named(req, state).map(ownPolicy);
  for (const p of policies)
    if (p.members.size > 0)
      throw badRequest(
        `Object store access policy '${p.name}' is attached to ${[...p.members].join(", ")}; remove it from them first.`,
        p.name,
      );
  for (const p of policies) state.accessPolicies.delete(p.name);
  return EMPTY;
};

function onePolicy(req: SimRequest, state: SimState): AccessPolicyRec {
  const picked = pickMembership(req, "policy", state.accessPolicies, "Object store access policy");
  if (picked?.length !== 1) throw badRequest("Name exactly one policy in 'policy_names' or 'policy_ids'.");
  return ownPolicy(picked[0] as AccessPolicyRec);
}

function rulesNamed(req: SimRequest, p: AccessPolicyRec): AccessRuleRec[] {
  return resolveAll(
    requireList(req, "names"),
    (n) => p.rules.find((r) => r.name === n),
    `Rule of '${p.name}'`,
  );
}

export const listAccessPolicyRules: Handler = (req, state) => {
  const policies = pickMembership(req, "policy", state.accessPolicies, "Object store access policy") ?? [
    ...state.accessPolicies.values(),
  ];
  return listing(
    policies.flatMap((p) => p.rules.map((r) => renderRule(p, r))),
    req,
    { noun: "Rule" },
  );
};

export const createAccessPolicyRules: Handler = (req, state) => {
  const p = onePolicy(req, state);
  const fields = parseBody(
    ruleFields,
    bodyObject(req, "PolicyRuleObjectAccessPost"),
    "PolicyRuleObjectAccessPost",
    req.version,
  );
  enforceActions(req, [fields]);
  const made = requireList(req, "names").map((name) => {
    if (p.rules.some((r) => r.name === name))
      throw badRequest(`Policy '${p.name}' already has a rule '${name}'.`, name);
    return toRules([{ name, ...fields }])[0] as AccessRuleRec;
  });
  p.rules.push(...made);
  return ok(made.map((r) => renderRule(p, r)));
};

export const updateAccessPolicyRules: Handler = (req, state) => {
  const p = onePolicy(req, state);
  const fields = parseBody(
    ruleFields.partial(),
    bodyObject(req, "PolicyRuleObjectAccessPost"),
    "PolicyRuleObjectAccessPost",
    req.version,
  );
  const rules = rulesNamed(req, p);
  enforceActions(
    req,
    rules.map((r) => ({
      ...r,
      ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
    })),
  );
  for (const r of rules)
    Object.assign(r, Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)));
  return ok(rules.map((r) => renderRule(p, r)));
};

export const deleteAccessPolicyRules: Handler = (req, state) => {
  const p = onePolicy(req, state);
  const gone = new Set(rulesNamed(req, p));
  p.rules = p.rules.filter((r) => !gone.has(r));
  return EMPTY;
};
