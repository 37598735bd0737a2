/**
 * Time-bound access (issue 45): a person asks for a role on some arrays for a while, with a reason; the approvers
 * the configuration names for that role and those arrays approve it in Slack (never the requester, never an
 * assistant); the grant is kept in the store until it ends by itself, so every replica and a restart agree. The
 * request is a pending record of kind "access": the same store, claim and approval compare-and-set as a change.
 */
import type { AccessRule } from "../../config/change-control.js";
import { UserFacingError } from "../../errors.js";
import { arraysMatch, describeMembers } from "../access/change-rules.js";
import type { Role } from "../access/roles.js";
import type { Outcome } from "../approvals/execute-pending.js";
import { cardEffects, closedCard, requestedBy, who } from "../approvals/gate-messages.js";
import type { PendingRecord } from "../approvals/pending-store.js";
import { ACTIONS } from "../context/pipeline-deps.js";
import type { Actor, Effect, MessageRef } from "../context/pipeline-types.js";
import type { Runtime } from "../pipeline/runtime.js";
import { formatWhen } from "../presentation/format-time.js";
import { type Block, type Message, message, Rich, rich } from "../presentation/message.js";
import { formatDuration } from "../words/units.js";

export interface AccessAsk {
  actor: Actor;
  role: Role;
  /** `tag:prod`, a name, or names joined by commas. */
  arrays: string;
  forMs: number;
  reason: string;
  requestId: string;
}

/** The access rule that covers a request: its roles hold the role and its arrays every array asked for. */
export function accessRuleFor(
  rules: readonly AccessRule[],
  rt: Runtime,
  role: Role,
  arrays: readonly string[],
): { rule: AccessRule; index: number } | undefined {
  const covered = (sel: AccessRule["arrays"], item: string) => {
    if (sel === undefined) return true;
    if (item.startsWith("tag:")) return (typeof sel === "string" ? [sel] : sel).includes(item);
    const client = rt.deps.pool.get(item);
    return arraysMatch(sel, { name: client.name, tags: client.tags });
  };
  const index = rules.findIndex((r) => r.roles.includes(role) && arrays.every((a) => covered(r.arrays, a)));
  const rule = rules[index];
  return rule && { rule, index };
}

/** Opens the request: stores it and returns the card for the approvals channel and the requester's note. */
export async function openAccessRequest(
  rt: Runtime,
  ask: AccessAsk,
): Promise<{ record: PendingRecord; effects: Effect[] }> {
  if (ask.actor.kind === "assistant" || ask.actor.kind === "workflow")
    throw new UserFacingError(
      "ACCESS_NO_RULE",
      "Only a person asks for access, in Slack or at the console; an assistant or a workflow cannot.",
    );
  const arrays = ask.arrays
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  // An unknown name is refused with the pool's own did-you-mean; a tag must select some array.
  for (const a of arrays) rt.deps.pool.select(a);
  const rules = rt.deps.config.access_requests?.rules ?? [];
  const found = accessRuleFor(rules, rt, ask.role, arrays);
  if (!found)
    throw new UserFacingError(
      "ACCESS_NO_RULE",
      `No access_requests rule lets anyone grant ${ask.role} on ${arrays.join(", ")}; ask an admin to map you instead.`,
    );
  const { rule, index } = found;
  if (ask.forMs > rule.max)
    throw new UserFacingError(
      "ACCESS_TOO_LONG",
      `${ask.role} on ${arrays.join(", ")} is granted for at most ${formatDuration(rule.max)}; ask for less (--for ${formatDuration(rule.max)}).`,
    );
  const now = rt.deps.now();
  const label = `access_requests.rules[${index}]`;
  const title = `grant ${ask.role} on ${arrays.join(", ")} to ${ask.actor.displayName ?? ask.actor.userId} for ${formatDuration(ask.forMs)}`;
  const record: PendingRecord = {
    id: rt.newId(),
    kind: "access",
    status: "pending",
    commandId: "access.request",
    args: { role: ask.role, arrays, forMs: ask.forMs },
    commandText: `access request ${ask.role} --array ${arrays.join(",")} --for ${formatDuration(ask.forMs)}`,
    requester: {
      userId: ask.actor.userId,
      ...(ask.actor.displayName ? { displayName: ask.actor.displayName } : {}),
    },
    channelId: ask.actor.channelId,
    array: arrays.join(","),
    requestId: ask.requestId,
    policy: "approve",
    approvalsRequired: rule.approvals,
    approverRole: "admin",
    approvals: [],
    fingerprint: "",
    state: {},
    display: {
      title,
      summary:
        rich`${ask.actor.displayName ?? ask.actor.userId} asks for the ${ask.role} role on ${arrays.join(", ")} for ${formatDuration(ask.forMs)}.`
          .markup,
      facts: [],
      warnings: [],
      requests: [],
    },
    rule: { label, approvals: rule.approvals, approvers: rule.approvers },
    reason: ask.reason,
    createdAt: now,
    expiresAt: now + rt.deps.config.destructive.expiry,
    updatedAt: now,
    messages: [],
  };
  await rt.deps.store.create(record);
  const card = accessCard(record, now, rt.deps.config.time_zone);
  const channel = rt.deps.config.destructive.approvals_channel ?? record.channelId;
  return { record, effects: [{ kind: "post", channelId: channel, message: card, trackPending: record.id }] };
}

/** The card asking for an access grant. */
export function accessCard(rec: PendingRecord, now: number, timeZone: string): Message {
  const got = rec.approvals.length ? `: ${rec.approvals.map(who).join(", ")}` : "";
  const blocks: Block[] = [
    { type: "header", text: `Access request: ${rec.display.title}` },
    { type: "section", text: new Rich(rec.display.summary) },
    { type: "context", text: rich`Reason: ${rec.reason ?? "–"}` },
    {
      type: "context",
      text: rich`Requested by ${requestedBy(rec)}. Rule ${rec.rule?.label ?? ""}: needs ${rec.approvalsRequired} of ${new Rich(rec.rule?.approvers ? describeMembers(rec.rule.approvers) : "nobody")}, never the requester; ${rec.approvals.length} of ${rec.approvalsRequired} so far${got}. Expires ${formatWhen(rec.expiresAt, now, timeZone)}.`,
    },
    {
      type: "actions",
      buttons: [
        { actionId: ACTIONS.approve, label: "Approve", value: rec.id, style: "primary" },
        { actionId: ACTIONS.deny, label: "Deny", value: rec.id },
      ],
    },
  ];
  return message(`Access request: ${rec.display.title}`, blocks, { visibility: "in_channel" });
}

/** The last approval came: the grant is written, the request ends as executed and its card says until when. */
export async function grantAccess(
  rt: Runtime,
  rec: PendingRecord,
  clickRef: MessageRef | undefined,
): Promise<Outcome> {
  const now = rt.deps.now();
  const args = rec.args as { role: Role; arrays: string[]; forMs: number };
  const until = now + args.forMs;
  await rt.control.addGrant({
    id: rec.id,
    userId: rec.requester.userId,
    ...(rec.requester.displayName ? { displayName: rec.requester.displayName } : {}),
    role: args.role,
    arrays: args.arrays,
    from: now,
    until,
    reason: rec.reason ?? "",
    approvedBy: rec.approvals.map((a) => a.userId),
  });
  await rt.deps.store.update(rec.id, { status: "executed", outcome: "ok", updatedAt: now });
  const headline = rich`Granted: ${who(rec.requester)} holds ${args.role} on ${args.arrays.join(", ")} until ${formatWhen(until, now, rt.deps.config.time_zone)}, approved by ${rec.approvals.map(who).join(", ")}. It ends by itself; \`/array access revoke\` ends it sooner.`;
  return {
    effects: cardEffects(rec, clickRef, closedCard(rec, rec.display, headline)),
    decision: "approved",
    ok: true,
    approvedBy: rec.approvals.map((a) => a.userId),
  };
}
