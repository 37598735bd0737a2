/** /lifecycle-rules (1.10+): rules named `bucket/rule_id`. */
import { z } from "zod";
import { bodyObject, nonNegativeInt, parseBody, referenceByName } from "../models/body.js";
import { type LifecycleRuleRec, renderLifecycleRule } from "../models/object-store.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { byId, EMPTY, exclusive, type Handler, listing, ok, paramSince, resolveAll } from "./common.js";

function view(state: SimState, version: string) {
  return (r: LifecycleRuleRec) => renderLifecycleRule(r, version, state.buckets.get(r.bucket)?.id ?? "");
}

/** The buckets named by bucket_names / bucket_ids, or undefined. */
function bucketScope(req: SimRequest, state: SimState): Set<string> | undefined {
  exclusive(req, "bucket_names", "bucket_ids");
  const names = req.query.list("bucket_names")?.filter((s) => s !== "");
  if (names?.length)
    return new Set(resolveAll(names, (n) => state.buckets.get(n), "Bucket").map((b) => b.name));
  const ids = req.query.list("bucket_ids")?.filter((s) => s !== "");
  if (ids?.length) {
    const index = byId(state.buckets.values());
    return new Set(resolveAll(ids, (i) => index.get(i), "Bucket with id").map((b) => b.name));
  }
  return undefined;
}

export const listLifecycleRules: Handler = (req, state) => {
  const scope = bucketScope(req, state);
  const rules = [...state.lifecycleRules.values()].filter((r) => !scope || scope.has(r.bucket));
  return listing(rules.map(view(state, req.version)), req, { noun: "Lifecycle rule" });
};

/** PATCH/DELETE select by `names`, or (1.12+) by `ids` together with bucket_names or bucket_ids. */
function select(req: SimRequest, state: SimState): LifecycleRuleRec[] {
  paramSince(req, "ids", "1.12");
  exclusive(req, "names", "ids");
  const scope = bucketScope(req, state);
  const ids = req.query.list("ids")?.filter((s) => s !== "");
  if (ids?.length) {
    if (!scope)
      throw badRequest("Selecting lifecycle rules by 'ids' needs 'bucket_names' or 'bucket_ids' too.");
    const index = byId([...state.lifecycleRules.values()].filter((r) => scope.has(r.bucket)));
    return resolveAll(ids, (i) => index.get(i), "Lifecycle rule with id");
  }
  const names = req.query.list("names")?.filter((s) => s !== "");
  if (!names?.length) throw badRequest("'names' is required (or 'ids' with 'bucket_names' or 'bucket_ids').");
  const rules = resolveAll(names, (n) => state.lifecycleRules.get(n), "Lifecycle rule");
  for (const r of rules) {
    if (scope && !scope.has(r.bucket))
      throw badRequest(`Lifecycle rule '${r.bucket}/${r.rule_id}' is not in the given buckets.`);
  }
  return rules;
}

const RULE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,254}$/;

const postBody = z.strictObject({
  bucket: referenceByName,
  rule_id: z.string().regex(RULE_ID).optional(),
  keep_previous_version_for: nonNegativeInt,
  prefix: z.string().optional(),
});

export const createLifecycleRules: Handler = (req, state) => {
  const body = parseBody(postBody, bodyObject(req, "LifecycleRulePost"), "LifecycleRulePost", req.version);
  const [bucket] = resolveAll([body.bucket.name], (n) => state.buckets.get(n), "Bucket");
  if (!bucket) throw badRequest("'bucket' is required.");
  if (bucket.destroyed) throw badRequest(`Bucket '${bucket.name}' is destroyed.`, bucket.name);
  let ruleId = body.rule_id;
  if (ruleId === undefined) {
    let n = 1;
    while (state.lifecycleRules.has(`${bucket.name}/fbRule${n}`)) n += 1;
    ruleId = `fbRule${n}`;
  }
  const name = `${bucket.name}/${ruleId}`;
  if (state.lifecycleRules.has(name)) throw badRequest(`Lifecycle rule '${name}' already exists.`, name);
  const rule: LifecycleRuleRec = {
    id: state.newId(),
    bucket: bucket.name,
    rule_id: ruleId,
    enabled: true,
    keep_previous_version_for: body.keep_previous_version_for,
    prefix: body.prefix ?? "",
  };
  state.lifecycleRules.set(name, rule);
  return ok([view(state, req.version)(rule)]);
};

const patchBody = z
  .strictObject({ enabled: z.boolean(), keep_previous_version_for: nonNegativeInt, prefix: z.string() })
  .partial();

export const updateLifecycleRules: Handler = (req, state) => {
  const rules = select(req, state);
  const body = parseBody(patchBody, bodyObject(req, "LifecycleRulePatch"), "LifecycleRulePatch", req.version);
  for (const r of rules) Object.assign(r, body);
  return ok(rules.map(view(state, req.version)));
};

export const deleteLifecycleRules: Handler = (req, state) => {
  for (const r of select(req, state)) state.lifecycleRules.delete(`${r.bucket}/${r.rule_id}`);
  return EMPTY;
};
