/** /policies (1.5+): snapshot policies, their rules, and the snapshots their rules made. */
import { z } from "zod";
import { NAME_RULES } from "../../rest-spec/names.js";
import { bodyObject, parseBody } from "../models/body.js";
import {
  type PolicyRec,
  type PolicyRuleRec,
  policyRuleSchema,
  renderPolicy,
  ruleKey,
  ruleProblem,
  toRule,
} from "../models/policy.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import {
  at,
  EMPTY,
  type Handler,
  listing,
  ok,
  paramSince,
  requireList,
  selectByNamesOrIds,
} from "./common.js";

/** Names as src/rest-spec/names.ts gives them for this kind. */
const NAME = NAME_RULES["policy"].pattern;

function render(state: SimState, version: string) {
  return (p: PolicyRec) => renderPolicy(p, version, state.array);
}

export const listPolicies: Handler = (req, state) =>
  listing([...state.policies.values()].map(render(state, req.version)), req, { noun: "Policy" });

function checkedRules(rules: PolicyRuleRec[]): PolicyRuleRec[] {
  const keys = new Set<string>();
  for (const r of rules) {
    const problem = ruleProblem(r);
    if (problem) throw badRequest(`Invalid policy rule: ${problem}`);
    if (keys.has(ruleKey(r))) throw badRequest("The same rule is listed twice.");
    keys.add(ruleKey(r));
  }
  return rules;
}

const postBody = z.strictObject({ enabled: z.boolean(), rules: z.array(policyRuleSchema) }).partial();

export const createPolicies: Handler = (req, state) => {
  const names = requireList(req, "names");
  const body = parseBody(postBody, bodyObject(req, "Policy", true), "Policy", req.version);
  for (const n of names) {
    if (!NAME.test(n)) throw badRequest(`'${n}' is not a valid policy name.`, n);
    if (state.policies.has(n)) throw badRequest(`Policy '${n}' already exists.`, n);
  }
  const created = names.map((name) => {
    const p: PolicyRec = {
      id: state.newId(),
      name,
      enabled: body.enabled ?? true,
      rules: checkedRules((body.rules ?? []).map(toRule)),
      members: new Set(),
    };
    state.policies.set(name, p);
    return p;
  });
  return ok(created.map(render(state, req.version)));
};

function patchSchema(req: SimRequest) {
  const shape: Record<string, z.ZodType> = {
    enabled: z.boolean(),
    add_rules: z.array(policyRuleSchema),
    remove_rules: z.array(policyRuleSchema),
  };
  if (at(req, "1.11")) shape["rules"] = z.array(policyRuleSchema);
  // PolicyPatch carried name (a rename) and id until 1.11; 1.12 dropped both.
  if (!at(req, "1.12")) Object.assign(shape, { name: z.string().regex(NAME), id: z.string() });
  return z.strictObject(shape).partial();
}

type PolicyPatchBody = {
  enabled?: boolean;
  add_rules?: z.output<typeof policyRuleSchema>[];
  remove_rules?: z.output<typeof policyRuleSchema>[];
  rules?: z.output<typeof policyRuleSchema>[];
  name?: string;
  id?: string;
};

/** The rules after the patch, and the ones it drops. */
function nextRules(p: PolicyRec, b: PolicyPatchBody): { rules: PolicyRuleRec[]; dropped: PolicyRuleRec[] } {
  if (b.rules !== undefined && (b.add_rules !== undefined || b.remove_rules !== undefined)) {
    throw badRequest("'rules' replaces all rules; it cannot be combined with 'add_rules' or 'remove_rules'.");
  }
  let rules = [...p.rules];
  const dropped: PolicyRuleRec[] = [];
  if (b.rules !== undefined) {
    const next = b.rules.map(toRule);
    const keep = new Set(next.map(ruleKey));
    dropped.push(...rules.filter((r) => !keep.has(ruleKey(r))));
    rules = next;
  }
  for (const rb of b.remove_rules ?? []) {
    const key = ruleKey(toRule(rb));
    const found = rules.find((r) => ruleKey(r) === key);
    if (!found)
      throw badRequest(
        `Policy '${p.name}' has no rule every=${rb.every} keep_for=${rb.keep_for} to remove.`,
        p.name,
      );
    rules = rules.filter((r) => r !== found);
    dropped.push(found);
  }
  for (const ra of b.add_rules ?? []) {
    const rule = toRule(ra);
    if (rules.some((r) => ruleKey(r) === ruleKey(rule))) {
      throw badRequest(
        `Policy '${p.name}' already has the rule every=${rule.every} keep_for=${rule.keep_for}.`,
        p.name,
      );
    }
    rules.push(rule);
  }
  return { rules: checkedRules(rules), dropped };
}

export const updatePolicies: Handler = (req, state) => {
  paramSince(req, "destroy_snapshots", "1.11");
  const targets = selectByNamesOrIds(req, state.policies, "Policy") ?? [];
  const body = parseBody(
    patchSchema(req),
    bodyObject(req, "PolicyPatch"),
    "PolicyPatch",
    req.version,
  ) as PolicyPatchBody;
  const destroySnapshots = req.query.bool("destroy_snapshots") === true;
  if (body.name !== undefined) {
    if (targets.length !== 1) throw badRequest("Renaming needs exactly one policy.");
    if (state.policies.has(body.name) && body.name !== targets[0]?.name) {
      throw badRequest(`Policy '${body.name}' already exists.`, body.name);
    }
  }
  const plans = targets.map((p) => {
    const plan = nextRules(p, body);
    const droppedKeys = new Set(plan.dropped.map(ruleKey));
    const owned = [...state.snapshots.values()].filter(
      (s) => !s.destroyed && s.policy?.id === p.id && droppedKeys.has(s.policy.ruleKey),
    );
    // destroy_snapshots arrived in 1.11; before that, removing a rule simply left its snapshots alone.
    if (owned.length > 0 && at(req, "1.11") && !destroySnapshots) {
      throw badRequest(
        `Removing rules from policy '${p.name}' would leave ${owned.length} snapshot(s) it made without a rule; ` +
          "set destroy_snapshots=true to destroy them.",
        p.name,
      );
    }
    return { p, rules: plan.rules, owned };
  });
  const now = state.clock();
  for (const { p, rules, owned } of plans) {
    p.rules = rules;
    if (body.enabled !== undefined) p.enabled = body.enabled;
    if (destroySnapshots) {
      for (const s of owned) {
        s.destroyed = true;
        s.destroyedAt = now;
      }
    }
    if (body.name !== undefined && body.name !== p.name) {
      state.policies.delete(p.name);
      p.name = body.name;
      state.policies.set(p.name, p);
    }
  }
  return ok(targets.map(render(state, req.version)));
};

export const deletePolicies: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, state.policies, "Policy") ?? [];
  for (const p of targets) state.policies.delete(p.name);
  return EMPTY;
};
