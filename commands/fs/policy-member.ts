/**
 * `fs create|update --policy <name>`: a snapshot policy asked for with a file system's other settings. It is
 * checked before the card is shown (it must exist; a paused one is said so) and attached by a request of its own,
 * the same POST /policies/file-systems that `policy attach` sends, after the file system's own request.
 */

import type { CommandContext, PlannedRequest } from "../../src/core/catalogue/define-command.js";
import { type Rich, rich } from "../../src/core/presentation/message.js";
import { objectName } from "../../src/core/words/arg-types.js";
import { requirePolicy } from "../policy/read.js";
import { planned } from "../shared/plan.js";

/** The `--policy` argument both commands take (a menu of the array's policies in their forms). */
export const policyArg = objectName("policy name")
  .optional()
  .describe("a snapshot policy to protect it with (REST 1.5+)");

export interface PolicyMembership {
  /** The request that attaches it. */
  request: PlannedRequest;
  warnings: Rich[];
}

export async function policyMembership(
  ctx: CommandContext,
  policy: string,
  fs: string,
): Promise<PolicyMembership> {
  const found = await requirePolicy(ctx, policy);
  return {
    request: planned("POST", "/policies/file-systems", { policy_names: [policy], member_names: [fs] }),
    warnings:
      found.enabled === false ? [rich`${policy} is paused: it takes no snapshots until resumed.`] : [],
  };
}
