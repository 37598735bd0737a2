/**
 * Change control as data (issue 45): approval rules matched on class, command, arrays and the requester's groups;
 * freeze windows with break-glass; and who may grant time-bound access. The pipeline applies them to every path
 * into an array (src/core/change-control/). Cross-checks that need the whole configuration (a class that exists,
 * an approver set that someone other than the requester can fill) are made at the root (schema.ts).
 */
import { z } from "zod";
import { parseDuration, ROLES } from "../vocabulary.js";

const slackId = z.string().regex(/^[A-Za-z0-9._-]+$/, "use the Slack ID (U…, W…, S…), not a name or @handle");

const membersSchema = z.strictObject({
  users: z.array(slackId).default([]),
  groups: z.array(slackId).default([]),
});
export type RuleMembers = z.output<typeof membersSchema>;

/** `tag:prod`, one array name, or a list of names: which arrays a rule or a window covers. */
const arraysSelector = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
export type ArraysSelector = z.output<typeof arraysSelector>;

const ruleSchema = z.strictObject({
  /** Shown on the card and in audit; `approvals.rules[N]` when absent. */
  name: z.string().min(1).max(60).optional(),
  match: z
    .strictObject({
      classes: z.array(z.string().min(1)).min(1).optional(),
      /** Command paths as typed: `fs destroy`, `policy update`. */
      commands: z.array(z.string().min(1)).min(1).optional(),
      arrays: arraysSelector.optional(),
      /** The requester's Slack user groups (any of them). */
      groups: z.array(slackId).min(1).optional(),
    })
    .default({}),
  /** Approvals from distinct people, none of them the requester. */
  approvals: z.int().min(1).max(10).default(1),
  /** The only people whose Approve counts (absent: anyone with the class's approver role). */
  approvers: membersSchema.optional(),
  /** People whose Deny vetoes the request whatever their role. */
  veto: membersSchema.optional(),
  reason: z.enum(["required", "optional"]).default("optional"),
  /** A pattern the reason must contain (a ticket number); implies a required reason. */
  ticket: z
    .string()
    .min(1)
    .refine((p) => {
      try {
        new RegExp(p);
        return true;
      } catch {
        return false;
      }
    }, "not a valid regular expression")
    .optional(),
});
export type ApprovalRule = z.output<typeof ruleSchema>;

const instant = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), "an ISO 8601 time, e.g. 2026-12-20T00:00:00Z");

const freezeSchema = z
  .strictObject({
    name: z.string().min(1).max(60),
    from: instant,
    to: instant,
    arrays: arraysSelector.optional(),
    /** `all`: every command that changes something; or the classes it covers. */
    classes: z.union([z.literal("all"), z.array(z.string().min(1)).min(1)]).default("all"),
  })
  .refine((f) => Date.parse(f.to) > Date.parse(f.from), {
    message: "`to` must be after `from`",
    path: ["to"],
  });
export type FreezeWindow = z.output<typeof freezeSchema>;

const duration = z.string().transform((v, ctx) => {
  const ms = parseDuration(v);
  if (ms === undefined) {
    ctx.addIssue({ code: "custom", message: `"${v}" is not a duration; write e.g. 2h, 1d` });
    return z.NEVER;
  }
  return ms;
});

const accessRuleSchema = z.strictObject({
  /** The roles a person may ask for under this rule. */
  roles: z.array(z.enum(ROLES)).min(1),
  arrays: arraysSelector.optional(),
  /** The longest grant; a request for longer is refused. */
  max: duration.default(4 * 3_600_000),
  approvers: membersSchema,
  approvals: z.int().min(1).max(10).default(1),
});
export type AccessRule = z.output<typeof accessRuleSchema>;

export const changeControlSections = {
  approvals: z.strictObject({ rules: z.array(ruleSchema).default([]) }).default({ rules: [] }),
  freeze: z.array(freezeSchema).default([]),
  break_glass: membersSchema.default({ users: [], groups: [] }),
  access_requests: z.strictObject({ rules: z.array(accessRuleSchema).default([]) }).default({ rules: [] }),
};

/**
 * What only the whole configuration can tell: a class a rule or a window names must exist, and an approver set
 * must be able to give the approvals it is asked for from people other than the requester. Group membership is
 * Slack's to say, so a set with a group is checked at start-up by the Slack face (src/slack/run.ts).
 */
export function changeControlIssues(
  c: {
    approvals: { rules: readonly ApprovalRule[] };
    freeze: readonly FreezeWindow[];
    access_requests: { rules: readonly AccessRule[] };
  },
  classes: readonly string[],
): { path: (string | number)[]; message: string }[] {
  const out: { path: (string | number)[]; message: string }[] = [];
  const unknownClass = (cls: string) => `"${cls}" is not a destructive class (one of ${classes.join(", ")})`;
  c.approvals.rules.forEach((r, i) => {
    r.match.classes?.forEach((cls, j) => {
      if (!classes.includes(cls))
        out.push({ path: ["approvals", "rules", i, "match", "classes", j], message: unknownClass(cls) });
    });
    const who = r.approvers;
    if (who && who.groups.length === 0 && who.users.length < r.approvals)
      out.push({
        path: ["approvals", "rules", i, "approvers"],
        message: `needs ${r.approvals} approvals but names only ${who.users.length} approver${who.users.length === 1 ? "" : "s"}, and the requester never counts: name more people or a group`,
      });
    if (who && who.groups.length === 0 && who.users.length === 0)
      out.push({
        path: ["approvals", "rules", i, "approvers"],
        message: "names nobody: give users or groups",
      });
  });
  c.freeze.forEach((w, i) => {
    if (w.classes === "all") return;
    w.classes.forEach((cls, j) => {
      if (!classes.includes(cls)) out.push({ path: ["freeze", i, "classes", j], message: unknownClass(cls) });
    });
  });
  c.access_requests.rules.forEach((r, i) => {
    if (r.approvers.groups.length === 0 && r.approvers.users.length < r.approvals)
      out.push({
        path: ["access_requests", "rules", i, "approvers"],
        message: `needs ${r.approvals} approvals but names only ${r.approvers.users.length} approver(s): name more people or a group`,
      });
  });
  return out;
}
