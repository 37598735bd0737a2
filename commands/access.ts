/**
 * `/array access request|list|revoke`: time-bound access (issue 45). Hand-written because it changes the bot's
 * own grants, not an array: a request becomes an approval card for the approvers `access_requests` names (never the
 * requester, never an assistant), and an approved grant gives the role on those arrays until it ends by itself.
 * Grants live in the store (src/core/change-control/records.ts), so every replica and a restart agree.
 */
import { z } from "zod";
import { arraysMatch, isMember } from "../src/core/access/change-rules.js";
import { ROLES, roleAtLeast } from "../src/core/access/roles.js";
import { defineCommand, defineResource } from "../src/core/catalogue/define-command.js";
import type { AccessGrant } from "../src/core/change-control/records.js";
import { formatWhen } from "../src/core/presentation/format-time.js";
import { message, rich } from "../src/core/presentation/message.js";
import { duration } from "../src/core/words/arg-types.js";
import { countOf, formatDuration } from "../src/core/words/units.js";
import { UserFacingError } from "../src/errors.js";

const control = (ctx: { control?: import("../src/core/catalogue/define-command.js").ControlPort }) => {
  if (!ctx.control) throw new UserFacingError("HISTORY_UNAVAILABLE", "This bot keeps no access grants here.");
  return ctx.control;
};

const accessRequest = defineCommand({
  verb: "request",
  summary: "Ask for a role on some arrays for a while, with a reason; the configured approvers grant it",
  examples: ['access request operator --array fb-lab-01 --for 2h --reason "INC-4711 array full"'],
  role: "viewer",
  scope: "global",
  // The bot\'s own records, never an array.
  endpoints: [],
  globalOptionsAsArgs: { array: "arrays", reason: "why" },
  args: z.object({
    role: z.enum(ROLES).describe("the role asked for"),
    arrays: z.string().min(1).max(400).describe("the arrays: a name, names with commas, or tag:<tag>"),
    for: duration().describe("how long, e.g. 2h"),
    why: z.string().min(4).max(500).optional().describe("why, given as --reason"),
  }),
  positional: ["role"],
  async run(args, ctx) {
    const c = control(ctx);
    const reason = args.why;
    if (!reason)
      throw new UserFacingError("RULE_NEEDS_REASON", 'An access request needs a reason: add --reason "…".');
    await c.requestAccess({ role: args.role, arrays: args.arrays, forMs: args.for, reason });
    return { role: args.role, arrays: args.arrays, forMs: args.for };
  },
  render(r) {
    return message(`Access requested: ${r.role} on ${r.arrays}`, [
      {
        type: "section",
        text: rich`Asked for ${r.role} on ${r.arrays} for ${formatDuration(r.forMs)}. The approvers access_requests names have the card; you hold the role once it is approved, until it ends by itself.`,
      },
    ]);
  },
});

const accessList = defineCommand({
  verb: "list",
  summary: "Who holds a role through an access grant, on which arrays, until when",
  examples: ["access list"],
  role: "viewer",
  scope: "global",
  // The bot\'s own records, never an array.
  endpoints: [],
  args: z.object({}),
  async run(_args, ctx): Promise<AccessGrant[]> {
    return control(ctx).records.grants(ctx.now());
  },
  render(grants, _args, rctx) {
    const headline = `${countOf(grants.length, "access grant")} in force`;
    if (grants.length === 0)
      return message("No access grant is in force.", [
        { type: "section", text: rich`No access grant is in force.` },
      ]);
    return message(headline, [
      { type: "header", text: headline },
      {
        type: "table",
        columns: [
          { key: "who", label: "Who" },
          { key: "role", label: "Role" },
          { key: "arrays", label: "Arrays" },
          { key: "until", label: "Until" },
          { key: "approved", label: "Approved by" },
          { key: "reason", label: "Reason" },
        ],
        rows: grants.map((g) => ({
          who: g.displayName ?? g.userId,
          role: g.role,
          arrays: g.arrays.join(", "),
          until: formatWhen(g.until, rctx.now, rctx.timeZone),
          approved: g.approvedBy.join(", "),
          reason: g.reason,
        })),
      },
    ]);
  },
});

const accessRevoke = defineCommand({
  verb: "revoke",
  summary: "End a person's access grants now (admins, or the approvers of access requests)",
  examples: ["access revoke U02BOB"],
  role: "viewer",
  scope: "global",
  // The bot\'s own records, never an array.
  endpoints: [],
  globalOptionsAsArgs: { array: "arrays" },
  args: z.object({
    user: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/, "a user id")
      .describe("whose grants"),
    arrays: z.string().min(1).max(400).optional().describe("only the grants naming this array or tag"),
  }),
  positional: ["user"],
  async run(args, ctx) {
    const c = control(ctx);
    const approver = c.config.accessRules.some((r) => isMember(r.approvers, ctx.actor.userId, []));
    const groups = approver ? [] : await c.groupsOf(ctx.actor.userId);
    const allowed =
      roleAtLeast(ctx.actor.role, "admin") ||
      approver ||
      c.config.accessRules.some((r) => isMember(r.approvers, ctx.actor.userId, groups));
    if (!allowed)
      throw new UserFacingError(
        "FORBIDDEN",
        "Ending someone's access needs an admin, or one of the approvers access_requests names.",
      );
    // `--array` names a grant's own words (`tag:prod`), or an array whose name or tag a grant covers.
    const asked = args.arrays;
    const covers = (g: AccessGrant): boolean => {
      if (asked === undefined || g.arrays.includes(asked)) return true;
      if (asked.startsWith("tag:")) return false;
      const client = ctx.pool.list().find((x) => x.name === asked);
      return client !== undefined && arraysMatch(g.arrays, { name: client.name, tags: client.tags });
    };
    const ended = await c.records.revoke(args.user, covers);
    if (ended.length === 0)
      throw new UserFacingError(
        "ACCESS_NOT_FOUND",
        `${args.user} holds no access grant${args.arrays ? ` on ${args.arrays}` : ""}.`,
      );
    return { user: args.user, ended };
  },
  render(r) {
    const what = r.ended.map((g) => `${g.role} on ${g.arrays.join(", ")}`).join("; ");
    return message(`Access ended for ${r.user}`, [
      { type: "section", text: rich`Ended ${countOf(r.ended.length, "grant")} of ${r.user}: ${what}.` },
    ]);
  },
});

export const accessResource = defineResource({
  name: "access",
  area: "Identity and security",
  summary: "Time-bound access: ask for a role for a while, see who holds one, end a grant",
  defaultVerb: "list",
  commands: [accessRequest, accessList, accessRevoke],
});
