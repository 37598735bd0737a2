/**
 * `/array audit break-glass [list|review <id>]`: the changes run through a freeze by someone allowed to break glass
 * (issue 45), listed for admins until one of them marks each reviewed. Hand-written because it reads and marks
 * the bot's own records (src/core/change-control/records.ts), not an array.
 */
import { z } from "zod";
import { type ControlPort, defineCommand, defineResource } from "../src/core/catalogue/define-command.js";
import type { BreakGlassEntry } from "../src/core/change-control/records.js";
import { formatWhen } from "../src/core/presentation/format-time.js";
import { message, rich } from "../src/core/presentation/message.js";
import { countOf } from "../src/core/words/units.js";
import { UserFacingError } from "../src/errors.js";

const control = (ctx: { control?: ControlPort }): ControlPort => {
  if (!ctx.control)
    throw new UserFacingError("HISTORY_UNAVAILABLE", "This bot keeps no break-glass records here.");
  return ctx.control;
};

const breakGlassList = defineCommand({
  verb: "list",
  summary: "Changes run through a freeze with break-glass that no admin has reviewed yet",
  examples: ["audit break-glass list"],
  role: "admin",
  scope: "global",
  // The bot\'s own records, never an array.
  endpoints: [],
  args: z.object({}),
  async run(_args, ctx): Promise<BreakGlassEntry[]> {
    return control(ctx).records.unreviewed();
  },
  render(entries, _args, rctx) {
    const headline = `${countOf(entries.length, "break-glass change")} to review`;
    if (entries.length === 0)
      return message("No break-glass change waits for a review.", [
        { type: "section", text: rich`No break-glass change waits for a review.` },
      ]);
    return message(headline, [
      { type: "header", text: headline },
      {
        type: "table",
        columns: [
          { key: "id", label: "Id" },
          { key: "when", label: "When" },
          { key: "who", label: "Who" },
          { key: "what", label: "Change" },
          { key: "array", label: "Array" },
          { key: "freeze", label: "Freeze" },
          { key: "reason", label: "Reason" },
        ],
        rows: entries.map((e) => ({
          id: e.id,
          when: formatWhen(e.at, rctx.now, rctx.timeZone),
          who: e.requester.displayName ?? e.requester.userId,
          what: e.command,
          array: e.array,
          freeze: e.freeze,
          reason: e.reason,
        })),
      },
      { type: "context", text: rich`Mark one reviewed with \`/array audit break-glass review <id>\`.` },
    ]);
  },
});

const breakGlassReview = defineCommand({
  verb: "review",
  summary: "Mark a break-glass change reviewed (it leaves the list; the record stays)",
  examples: ["audit break-glass review 4b1e0c2a"],
  role: "admin",
  scope: "global",
  // The bot\'s own records, never an array.
  endpoints: [],
  args: z.object({ id: z.string().min(1).max(128).describe("the change's id, from the list") }),
  positional: ["id"],
  async run(args, ctx) {
    const by = {
      userId: ctx.actor.userId,
      ...(ctx.actor.displayName ? { displayName: ctx.actor.displayName } : {}),
    };
    const done = await control(ctx).records.review(args.id, by, ctx.now());
    if (!done) throw new UserFacingError("ACCESS_NOT_FOUND", `No break-glass change has the id ${args.id}.`);
    return done;
  },
  render(e) {
    return message(`Reviewed: ${e.id}`, [
      {
        type: "section",
        text: rich`Marked reviewed: ${e.requester.displayName ?? e.requester.userId}'s \`${e.command}\` on ${e.array} during the ${e.freeze} freeze (“${e.reason}”).`,
      },
    ]);
  },
});

export const breakGlassResource = defineResource({
  name: "audit break-glass",
  area: "Operations",
  summary: "Changes made through a freeze with break-glass, until an admin reviews them",
  defaultVerb: "list",
  commands: [breakGlassList, breakGlassReview],
});
