/**
 * PATCH /object-store-accounts (REST 2.8+): an account's quota (`quota_limit`, bytes, sent as a string of digits)
 * and whether it is enforced (`hard_limit_enabled`). The array refuses an enforced quota below what the account
 * already holds unless the request says `ignore_usage=true`.
 */
import { z } from "zod";
import { bodyObject, parseBody } from "../models/body.js";
import type { SimState } from "../state.js";
import { badRequest } from "../types.js";
import { type Handler, ok, selectByNamesOrIds } from "./common.js";
import { accountView } from "./object-store.js";

const patchBody = z.looseObject({
  quota_limit: z
    .union([z.string().regex(/^\d*$/, "'quota_limit' is a number of bytes"), z.number().int().min(0)])
    .optional(),
  hard_limit_enabled: z.boolean().optional(),
});

function usedBy(state: SimState, account: string): number {
  let used = 0;
  for (const b of state.buckets.values()) if (b.account === account) used += b.space.virtual;
  return used;
}

export const updateAccounts: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, state.accounts, "Object store account") ?? [];
  const body = parseBody(
    patchBody,
    bodyObject(req, "ObjectStoreAccountPatch"),
    "ObjectStoreAccountPatch",
    req.version,
  );
  const quota =
    body.quota_limit === undefined || body.quota_limit === "" ? undefined : Number(body.quota_limit);
  const ignoreUsage = req.query.bool("ignore_usage") === true;
  for (const a of targets) {
    const hard = body.hard_limit_enabled ?? a.hard_limit_enabled ?? false;
    const limit = quota ?? a.quota_limit ?? null;
    const used = usedBy(state, a.name);
    if (hard && limit !== null && limit < used && !ignoreUsage)
      throw badRequest(
        `Account '${a.name}' holds ${used} bytes, more than the quota of ${limit}; give 'ignore_usage=true' to set it anyway.`,
        a.name,
      );
  }
  for (const a of targets) {
    if (body.quota_limit !== undefined) a.quota_limit = quota ?? null;
    if (body.hard_limit_enabled !== undefined) a.hard_limit_enabled = body.hard_limit_enabled;
  }
  return ok(targets.map(accountView(state, req.version)));
};
