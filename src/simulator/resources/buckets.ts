/** /buckets: create in an account, list, destroy/recover/versioning, eradicate. */
import { z } from "zod";
import { NAME_RULES } from "../../rest-spec/names.js";
import { bodyObject, parseBody, referenceByName } from "../models/body.js";
import { applyDestroyed } from "../models/file-system.js";
import { type BucketRec, renderBucket } from "../models/object-store.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import {
  at,
  EMPTY,
  type Handler,
  listing,
  ok,
  preselect,
  requireList,
  selectByNamesOrIds,
} from "./common.js";

/** Names as src/rest-spec/names.ts gives them for this kind. */
const NAME = NAME_RULES["bucket"].pattern;

function view(state: SimState, version: string) {
  const now = state.clock();
  return (b: BucketRec) => renderBucket(b, version, now, state.accounts.get(b.account)?.id ?? "");
}

export const listBuckets: Handler = (req, state) => {
  const destroyed = req.query.bool("destroyed");
  const render = view(state, req.version);
  const items: Record<string, unknown>[] = [];
  for (const b of preselect(req, state.buckets, () => state.buckets.values())) {
    if (destroyed === undefined || b.destroyed === destroyed) items.push(render(b));
  }
  return listing(items, req, { totals: "object", noun: "Bucket" });
};

/**
 * BucketPost is `{"account": {"name": …}}` in every version: Pure's SDK models 1.5–1.12 have only `account`,
 * and the spec's 1.9 `bucket` is the SDK's keyword for the whole body. A body keyed `bucket` is refused the way
 * an array refuses an unknown field, naming the one it wants.
 */
function accountOf(req: SimRequest): string {
  const body = bodyObject(req, "BucketPost");
  if ("bucket" in body && !("account" in body)) {
    throw badRequest(
      "BucketPost names the bucket's account in 'account' ({\"account\": {\"name\": …}}), not 'bucket'.",
    );
  }
  return parseBody(z.strictObject({ account: referenceByName }), body, "BucketPost", req.version).account
    .name;
}

export const createBuckets: Handler = (req, state) => {
  const names = requireList(req, "names");
  const account = accountOf(req);
  if (!state.accounts.has(account))
    throw badRequest(`Object store account '${account}' does not exist.`, account);
  for (const n of names) {
    if (!NAME.test(n))
      throw badRequest(`'${n}' is not a valid bucket name (3-63 lowercase letters, digits, '-').`, n);
    if (state.buckets.has(n)) throw badRequest(`Bucket '${n}' already exists.`, n);
  }
  const created = names.map((name) => {
    const b: BucketRec = {
      id: state.newId(),
      name,
      account,
      created: state.clock(),
      destroyed: false,
      destroyedAt: null,
      versioning: "none",
      object_count: 0,
      space: { virtual: 0, unique: 0, snapshots: 0, data_reduction: 1 },
    };
    state.buckets.set(name, b);
    return b;
  });
  return ok(created.map(view(state, req.version)));
};

function patchSchema(req: SimRequest) {
  const shape: Record<string, z.ZodType> = { destroyed: z.boolean() };
  if (at(req, "1.9")) shape["versioning"] = z.enum(["enabled", "suspended"]);
  return z.strictObject(shape).partial();
}

export const updateBuckets: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, state.buckets, "Bucket") ?? [];
  const body = parseBody(patchSchema(req), bodyObject(req, "BucketPatch"), "BucketPatch", req.version) as {
    destroyed?: boolean;
    versioning?: "enabled" | "suspended";
  };
  for (const b of targets) {
    if (b.destroyed && body.destroyed !== false) {
      throw badRequest(
        `Bucket '${b.name}' is destroyed; it can only be recovered (destroyed=false) or eradicated.`,
        b.name,
      );
    }
    if (b.destroyed && body.versioning !== undefined)
      throw badRequest(`Recover bucket '${b.name}' before changing it.`, b.name);
  }
  const now = state.clock();
  for (const b of targets) {
    if (body.versioning !== undefined) b.versioning = body.versioning;
    applyDestroyed(b, body.destroyed, now);
  }
  return ok(targets.map(view(state, req.version)));
};

export const deleteBuckets: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, state.buckets, "Bucket") ?? [];
  for (const b of targets) {
    if (!b.destroyed) {
      throw badRequest(
        `Bucket '${b.name}' is not destroyed; destroy it (PATCH destroyed=true) before eradicating it.`,
        b.name,
      );
    }
  }
  for (const b of targets) {
    state.buckets.delete(b.name);
    for (const [key, r] of state.lifecycleRules) if (r.bucket === b.name) state.lifecycleRules.delete(key);
    for (const [id, l] of state.bucketReplicaLinks)
      if (l.localBucket === b.name) state.bucketReplicaLinks.delete(id);
  }
  return EMPTY;
};
