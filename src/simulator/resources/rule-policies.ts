/**
 * Policies made of ordered rules, as 2.x has four of them (NFS export, SMB client, SMB share, network access):
 * one engine, a descriptor per family (rule-policy-families.ts). The array's rules kept here: names are unique,
 * rules are evaluated in `index` order (1, 2, …, renumbered after every change; `before_rule_name`/`_id` or
 * `index` place a rule), every change gives the policy a new `version` and a request naming `versions` is
 * refused when the policy changed since it was read, and a policy something uses cannot be deleted.
 */
import { nameProblem } from "../../rest-spec/names.js";
import type { Json } from "../models/body.js";
import { bodyObject } from "../models/body.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { EMPTY, type Handler, listing, ok, requireList, selectByNamesOrIds } from "./common.js";
import { arrayRef, pickOne, type Rec, records, refOf, rejectReadOnly } from "./family-store.js";

export interface RuleFamily {
  /** The policies' path; rules live at `${path}/rules`. */
  path: string;
  /** "NFS export policy", for messages. */
  noun: string;
  /** The policy's `policy_type`. */
  policyType: string;
  /** Whether rules carry an `index` (SMB share rules are a set, keyed by principal). */
  indexed: boolean;
  /** A new rule's fields when the request leaves them out. */
  ruleDefaults: Json;
  /** Refuses a rule the array refuses (bad enum, bad client…); `rule` is the whole rule after the change. */
  checkRule(rule: Json, policy: Rec): void;
  /** Extra fields of a new policy (e.g. `access_based_enumeration_enabled`). */
  policyDefaults?: Json;
  /** What uses the policy (an export, a file system…), which keeps it from being deleted. */
  usedBy?(state: SimState, policy: Rec): string | undefined;
  /** Built-in policies only (network access): no POST or DELETE on the policies. */
  builtInOnly?: boolean;
}

const RULE_READ_ONLY = ["id", "name", "policy", "policy_version", "context"];

export type Rule = Json & { name: string; id: string; index?: number };

export function rulesOf(policy: Rec): Rule[] {
  return (policy["rules"] as Rule[] | undefined) ?? [];
}

function renumber(state: SimState, f: RuleFamily, policy: Rec, rules: Rule[]): void {
  policy["version"] = state.newId();
  policy["rules"] = rules.map((r, i) => ({
    ...r,
    ...(f.indexed ? { index: i + 1 } : {}),
    policy: refOf(policy, f.path.slice(1)),
    policy_version: policy["version"],
  }));
}

function checkVersions(req: SimRequest, policies: Rec[]): void {
  const versions = req.query.list("versions")?.filter((v) => v !== "");
  if (!versions?.length) return;
  policies.forEach((p, i) => {
    const want = versions[Math.min(i, versions.length - 1)];
    if (want !== p["version"])
      throw badRequest(
        `Policy '${p.name}' changed since version '${want}' was read (it is now '${String(p["version"])}'); read it again.`,
        p.name,
      );
  });
}

function newPolicy(state: SimState, f: RuleFamily, name: string, body: Json): Rec {
  const p: Rec = {
    name,
    id: state.newId(),
    enabled: (body["enabled"] as boolean | undefined) ?? true,
    is_local: true,
    location: arrayRef(state),
    policy_type: f.policyType,
    realms: [],
    context: arrayRef(state),
    version: "",
    ...(f.policyDefaults ?? {}),
    rules: [],
  };
  for (const k of Object.keys(f.policyDefaults ?? {})) if (k in body) p[k] = body[k];
  // Each rule's name counts on from the ones before it in the same body (lab-clients.1, lab-clients.2, …).
  const rules: Rule[] = [];
  for (const r of (body["rules"] as Json[] | undefined) ?? []) rules.push(newRule(state, f, p, r, rules));
  renumber(state, f, p, rules);
  return p;
}

function newRule(state: SimState, f: RuleFamily, policy: Rec, body: Json, existing: Rule[]): Rule {
  rejectReadOnly(body, RULE_READ_ONLY, `a rule of ${f.noun}`);
  const { index: _index, ...fields } = body;
  const seq = Math.max(0, ...existing.map((r) => Number(r.name.split(".").at(-1)) || 0)) + 1;
  const rule: Rule = { name: `${policy.name}.${seq}`, id: state.newId(), ...f.ruleDefaults, ...fields };
  f.checkRule(rule, policy);
  return rule;
}

/** Where a new or moved rule goes: before a named rule, at a 1-based `index`, else last. */
function position(req: SimRequest, rules: Rule[], body: Json): number {
  const beforeName = req.query.string("before_rule_name");
  const beforeId = req.query.string("before_rule_id");
  if (beforeName !== undefined || beforeId !== undefined) {
    if (body["index"] !== undefined)
      throw badRequest("'index' cannot be given together with 'before_rule_name' or 'before_rule_id'.");
    const at = rules.findIndex((r) => r.name === beforeName || r.id === beforeId);
    if (at < 0) throw badRequest(`Rule '${beforeName ?? beforeId}' is not in this policy.`);
    return at;
  }
  const index = body["index"];
  if (index === undefined) return rules.length;
  if (!Number.isInteger(index) || (index as number) < 1)
    throw badRequest(`'index' must be a whole number from 1 (got ${JSON.stringify(index)}).`, "index");
  return Math.min((index as number) - 1, rules.length);
}

export function ruleHandlers(f: RuleFamily) {
  const what = f.noun.charAt(0).toUpperCase() + f.noun.slice(1);
  const policies = (state: SimState) => records(state, f.path);
  const allRules = (state: SimState) => [...policies(state).values()].flatMap(rulesOf);
  const ruleOwner = (state: SimState, rule: Rule) =>
    policies(state).get(String((rule["policy"] as Json)["name"])) as Rec;
  const rulesByName = (state: SimState) => new Map(allRules(state).map((r) => [r.name, r]));

  const listPolicies: Handler = (req, state) => listing([...policies(state).values()], req, { noun: what });

  const createPolicies: Handler = (req, state) => {
    if (f.builtInOnly) throw badRequest(`${what} policies are built in; change the existing one with PATCH.`);
    const names = requireList(req, "names");
    const body = bodyObject(req, "policy", true);
    rejectReadOnly(body, ["id", "name", "is_local", "policy_type", "version", "realms", "context"], f.noun);
    for (const n of names) {
      const problem = nameProblem(n);
      if (problem) throw badRequest(`'${n}' is not a valid name (${problem}).`, n);
      if (policies(state).has(n)) throw badRequest(`${what} '${n}' already exists.`, n);
    }
    const made = names.map((n) => newPolicy(state, f, n, body));
    for (const p of made) policies(state).set(p.name, p);
    return ok(made);
  };

  const updatePolicies: Handler = (req, state) => {
    const targets = selectByNamesOrIds(req, policies(state), what) as Rec[];
    checkVersions(req, targets);
    const body = bodyObject(req, "policy");
    rejectReadOnly(body, ["id", "is_local", "policy_type", "version", "realms", "context"], f.noun);
    const rename = body["name"] as string | undefined;
    if (rename !== undefined) {
      if (targets.length > 1) throw badRequest("Rename one policy at a time.");
      const problem = nameProblem(rename);
      if (problem) throw badRequest(`'${rename}' is not a valid name (${problem}).`, rename);
      if (policies(state).has(rename)) throw badRequest(`${what} '${rename}' already exists.`, rename);
    }
    for (const p of targets) {
      if (body["enabled"] !== undefined) p["enabled"] = body["enabled"];
      for (const k of Object.keys(f.policyDefaults ?? {})) if (k in body) p[k] = body[k];
      let rules = rulesOf(p);
      if (body["rules"] !== undefined)
        rules = (body["rules"] as Json[]).map((r, i, all) =>
          newRule(state, f, p, r, rules.concat(all.slice(0, i) as Rule[])),
        );
      if (rename !== undefined) {
        policies(state).delete(p.name);
        p.name = rename;
        policies(state).set(rename, p);
      }
      renumber(state, f, p, rules);
    }
    return ok(targets);
  };

  const deletePolicies: Handler = (req, state) => {
    if (f.builtInOnly) throw badRequest(`${what} policies are built in and cannot be deleted.`);
    const targets = selectByNamesOrIds(req, policies(state), what) as Rec[];
    checkVersions(req, targets);
    for (const p of targets) {
      const user = f.usedBy?.(state, p);
      if (user)
        throw badRequest(`${what} '${p.name}' is in use by ${user}; remove it from there first.`, p.name);
    }
    for (const p of targets) policies(state).delete(p.name);
    return EMPTY;
  };

  const listRules: Handler = (req, state) => {
    const policy = pickOne(req, "policy", policies(state), what, false);
    const rules = policy ? rulesOf(policy) : allRules(state);
    return listing(rules, req, { noun: "Rule" });
  };

  const createRules: Handler = (req, state) => {
    const policy = pickOne(req, "policy", policies(state), what) as Rec;
    checkVersions(req, [policy]);
    const body = bodyObject(req, "rule", true);
    const rules = rulesOf(policy);
    const rule = newRule(state, f, policy, body, rules);
    if (!f.indexed && rules.some((r) => r["principal"] === rule["principal"]))
      throw badRequest(`Policy '${policy.name}' already has a rule for '${String(rule["principal"])}'.`);
    const at = f.indexed ? position(req, rules, body) : rules.length;
    renumber(state, f, policy, [...rules.slice(0, at), rule, ...rules.slice(at)]);
    return ok([rulesOf(policy).find((r) => r.name === rule.name)]);
  };

  const updateRules: Handler = (req, state) => {
    const targets = selectByNamesOrIds(req, rulesByName(state), "Rule") as Rule[];
    const body = bodyObject(req, "rule");
    rejectReadOnly(body, RULE_READ_ONLY, `a rule of ${f.noun}`);
    const out: Rule[] = [];
    for (const t of targets) {
      const policy = ruleOwner(state, t);
      checkVersions(req, [policy]);
      const { index: _i, ...fields } = body;
      const changed: Rule = { ...t, ...fields };
      f.checkRule(changed, policy);
      const rest = rulesOf(policy).filter((r) => r.name !== t.name);
      const moves =
        body["index"] !== undefined || req.query.has("before_rule_name") || req.query.has("before_rule_id");
      const at =
        moves && f.indexed ? position(req, rest, body) : rulesOf(policy).findIndex((r) => r.name === t.name);
      renumber(state, f, policy, [...rest.slice(0, at), changed, ...rest.slice(at)]);
      out.push(rulesOf(policy).find((r) => r.name === t.name) as Rule);
    }
    return ok(out);
  };

  const deleteRules: Handler = (req, state) => {
    const targets = selectByNamesOrIds(req, rulesByName(state), "Rule") as Rule[];
    for (const t of targets) {
      const policy = ruleOwner(state, t);
      checkVersions(req, [policy]);
      renumber(
        state,
        f,
        policy,
        rulesOf(policy).filter((r) => r.name !== t.name),
      );
    }
    return EMPTY;
  };

  return {
    policies: { GET: listPolicies, POST: createPolicies, PATCH: updatePolicies, DELETE: deletePolicies },
    rules: { GET: listRules, POST: createRules, PATCH: updateRules, DELETE: deleteRules },
  };
}
