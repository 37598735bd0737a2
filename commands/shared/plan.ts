/**
 * A change is the requests its impact plans (impacts ask the client for them: `ctx.array.fileSystems.planUpdate`…,
 * where every version difference lives); the pipeline sends exactly those (src/core/requests/send-plan.ts) and the
 * command's `result` reads what they answered, with the helpers here.
 */
import type { z } from "zod";
import type { CommandContext } from "../../src/core/catalogue/define-command.js";
import type { Responses } from "../../src/core/requests/send-plan.js";
import { contract } from "../../src/flashblade/errors.js";
import { validateItems } from "../../src/flashblade/response.js";

/**
 * A planned call built in the command from the client's wire helpers (snapshot commands still do this; file
 * system commands ask the client for the plan). Prefer a client `plan…` function where one exists.
 */
export { plan as planned } from "../../src/flashblade/resources/core.js";

/** The items request `index` (the last by default) answered with, checked against `schema`. */
export function itemsOf<T>(
  ctx: CommandContext,
  responses: Responses,
  schema: z.ZodType<T>,
  index = responses.length - 1,
): T[] {
  return validateItems(ctx.arrayName, "the planned request", responses[index] ?? [], schema);
}

/** The one item a write answers with. */
export function onlyItem<T>(ctx: CommandContext, path: string, items: readonly T[]): T {
  const first = items[0];
  if (first === undefined) throw contract(ctx.arrayName, path, "items", "expected one item, got none");
  return first;
}
