/**
 * The requests a command shows are the requests it sends: impacts plan them with the client
 * (`ctx.array.fileSystems.planUpdate`…, where every version difference lives) and `run` sends exactly those.
 */
import type { z } from "zod";
import type { CommandContext, Impact } from "../../src/core/define-command.js";
import { InternalError } from "../../src/errors.js";
import { contract } from "../../src/flashblade/errors.js";

/**
 * A planned call built in the command from the client's wire helpers (snapshot commands still do this; file
 * system commands ask the client for the plan). Prefer a client `plan…` function where one exists.
 */
export { plan as planned } from "../../src/flashblade/resources/core.js";

/** Sends the impact's planned requests in order, as shown; returns the items the last one answered with. */
export async function sendPlanned<T>(
  ctx: CommandContext,
  impact: Impact | undefined,
  schema?: z.ZodType<T>,
): Promise<T[]> {
  if (!impact || impact.requests.length === 0)
    throw new InternalError("NO_PLANNED_REQUEST", "a write ran without the requests its impact planned");
  let out: T[] = [];
  for (const r of impact.requests) out = await ctx.array.send(r, schema);
  return out;
}

/** The one item a write answers with. */
export function onlyItem<T>(ctx: CommandContext, path: string, items: readonly T[]): T {
  const first = items[0];
  if (first === undefined) throw contract(ctx.arrayName, path, "items", "expected one item, got none");
  return first;
}

/**
 * Sends the impact's one planned request as shown, when there is one (link and lifecycle-rule writes plan
 * exactly one; their result is what the impact named, not what the array answers).
 */
/**
 * Sends planned request `index` as shown on the card, with `filled` merged into its body: the values only the
 * run can know (a key fetched from another array, a typed secret) replace their placeholders there and
 * nowhere else, so what was confirmed is what is sent.
 */
export async function sendPlannedFilled<T>(
  ctx: CommandContext,
  impact: Impact | undefined,
  index: number,
  filled: Record<string, unknown>,
  schema?: z.ZodType<T>,
): Promise<T[]> {
  const shown = impact?.requests[index];
  if (!shown)
    throw new InternalError("NO_PLANNED_REQUEST", "a write ran without the requests its impact planned");
  return ctx.array.send(
    { ...shown, body: { ...(shown.body as Record<string, unknown>), ...filled } },
    schema,
  );
}

export async function sendFirstPlanned(ctx: CommandContext, impact: Impact | undefined): Promise<void> {
  const r = impact?.requests[0];
  if (r) await ctx.array.send(r);
}
