/**
 * An object store role's trust policy as the IAM document `object-store-trust-policy upload` takes (PATCH
 * /object-store-roles/object-store-trust-policies/upload, body ObjectStoreTrustPolicyIam): who may assume the
 * role (federated identity providers), with which actions, under which conditions. Checked here so a malformed
 * document is refused with its reason before a card is shown; the array keeps the rules it makes of it.
 */
import { z } from "zod";

const oneOrMore = z.union([z.string().min(1).max(1024), z.array(z.string().min(1).max(1024)).min(1).max(64)]);

const statement = z
  .object({
    Sid: z.string().max(128).optional(),
    Effect: z.literal("Allow", { error: "a trust policy statement allows (Effect: Allow)" }),
    Principal: z.object({ Federated: oneOrMore }).strict(),
    Action: oneOrMore,
    Condition: z.record(z.string(), z.record(z.string(), oneOrMore)).optional(),
  })
  .strict();

export const TRUST_POLICY_DOCUMENT = z
  .object({
    Version: z.string().max(32).optional(),
    Statement: z.array(statement).min(1, "name at least one statement").max(64),
  })
  .strict();
