/**
 * The gate in front of destructive actions: the configured policy for the action's class decides between
 * running after the requester's confirmation, after N approvals by other people, or never. A request that
 * passes the gate becomes a pending record bound to its exact arguments and to the array state it was shown.
 */
import type { GatePolicy } from "../../config/schema.js";
import { InternalError, UserFacingError } from "../../errors.js";
import type { ArrayClient } from "../../flashblade/types.js";
import { requesterOf } from "../access/actors.js";
import type { DestructiveClass, Impact } from "../catalogue/define-command.js";
import type { CommandEntry } from "../catalogue/registry.js";
import type { ChangeControl } from "../change-control/apply.js";
import type { Actor, Effect, SecretField } from "../context/pipeline-types.js";
import type { Runtime } from "../pipeline/runtime.js";
import { message, Rich, rich } from "../presentation/message.js";
import { canonicalPlan } from "../requests/send-plan.js";
import { commandPath } from "../words/command-path.js";
import { fingerprintOf } from "./fingerprint.js";
import { formatPlannedRequest, requestCard, who } from "./gate-messages.js";
import type { PendingDisplay, PendingRecord } from "./pending-store.js";

export function policyFor(rt: Runtime, cls: DestructiveClass): GatePolicy {
  return rt.deps.config.destructive[cls];
}

export async function displayOf(
  entry: CommandEntry,
  impact: Impact,
  client: ArrayClient,
): Promise<PendingDisplay> {
  const version = await client.version();
  // A target that already starts with the verb (the raw API's "PATCH /arrays") is not said twice.
  const verb = entry.command.verb;
  const said = impact.target.toLowerCase().startsWith(`${verb.toLowerCase()} `);
  return {
    title: `${said ? "" : `${verb} `}${impact.target} on ${client.name}`,
    summary: impact.summary.markup,
    facts: impact.facts.map((f) => ({ label: f.label, markup: f.value.markup })),
    warnings: impact.warnings.map((w) => w.markup),
    requests: impact.requests.map((r) => formatPlannedRequest(r, version)),
  };
}

export interface GateRequest {
  /** Change control that applies (an approval rule, a reason, a freeze broken through): src/core/change-control/. */
  control?: ChangeControl;
  entry: CommandEntry;
  args: Record<string, unknown>;
  actor: Actor;
  requestId: string;
  client: ArrayClient;
  impact: Impact;
  /** The class of harm; absent for a harmless change that is gated only because it takes secrets. */
  cls?: DestructiveClass;
  /** Secrets the requester types privately to confirm. */
  secrets?: readonly SecretField[];
  commandText: string;
}

/**
 * The policy of a request. A command that takes secrets is confirmed by its requester alone, typing the secrets
 * in a private prompt as the confirmation: the secret exists only in the requester's hands and in memory for
 * that one run, so it can neither wait in the store for someone else's approval nor be typed by an approver.
 * Where the configuration asks approvals for its class, the command is refused (never quietly downgraded to a
 * confirmation: that would bypass the approval the configuration asks for).
 */
function gatePolicy(rt: Runtime, req: GateRequest): Exclude<GatePolicy, { policy: "deny" }> {
  const secrets = (req.secrets?.length ?? 0) > 0;
  if (secrets && req.impact.typeToConfirm !== undefined) {
    // Two prompts for one confirmation would each come back without the other's answer.
    throw new InternalError("SECRET_WITH_TYPED_NAME", `${req.entry.id} asks for secrets and a typed name`);
  }
  const { cls } = req;
  const assistant = req.actor.kind === "assistant";
  const workflow = req.actor.kind === "workflow";
  if (workflow && !req.actor.onBehalfOf) {
    throw new UserFacingError(
      "WORKFLOW_NEEDS_PERSON",
      `\`${commandPath(req.entry.id)}\` changes the array, and a workflow step changes nothing without a person: give the step's "Requested by" input the person who used the workflow, so they confirm it. Nothing was changed.`,
    );
  }
  if (assistant && secrets) {
    throw new UserFacingError(
      "ASSISTANT_NO_SECRETS",
      `\`${commandPath(req.entry.id)}\` takes a secret that only a person types, in a private dialog; an assistant cannot propose it. Nothing was changed.`,
    );
  }
  // An assistant confirms nothing: what a person would confirm needs another person's Approve.
  const byPerson: GatePolicy = { policy: "approve", approvers: 1, approver_role: req.entry.command.role };
  const rule = req.control?.rule;
  if (!cls) {
    if (rule) return { policy: "approve", approvers: rule.approvals, approver_role: req.entry.command.role };
    return assistant ? byPerson : { policy: "confirm" };
  }
  const classPolicy = policyFor(rt, cls);
  // An approval rule replaces the class's own count of approvals (it never turns on a class set to deny).
  const policy: GatePolicy =
    rule && classPolicy.policy !== "deny"
      ? {
          policy: "approve",
          approvers: rule.approvals,
          approver_role:
            classPolicy.policy === "approve" ? classPolicy.approver_role : req.entry.command.role,
        }
      : classPolicy;
  const what = cls.replace(/_/g, " ");
  if (assistant && rt.deps.config.mcp?.forbid_classes.includes(cls)) {
    throw new UserFacingError(
      "ACTION_DENIED_BY_POLICY",
      `Assistants may not propose ${what} actions (mcp.forbid_classes); a person can ask for it in Slack. Nothing was changed.`,
    );
  }
  if (policy.policy === "deny") {
    throw new UserFacingError(
      "ACTION_DENIED_BY_POLICY",
      `${what} actions are turned off for this bot (destructive.${cls}: deny). Nothing was changed.`,
    );
  }
  if (secrets && policy.policy === "approve") {
    throw new UserFacingError(
      "SECRET_NEEDS_REQUESTER",
      `\`${commandPath(req.entry.id)}\` takes a secret that only you type, in a private dialog, so it cannot wait for someone else's approval; this bot asks approvals for ${what} actions (destructive.${cls}: approve). Run it on the array itself, or ask whoever runs the bot to set destructive.${cls}: confirm. Nothing was changed.`,
    );
  }
  if (assistant && policy.policy === "confirm") return byPerson;
  return policy;
}

/**
 * A workflow step's change is confirmed first by the person Slack vouched for (they did not type it: their click
 * is what makes it theirs), and only then, where the class asks approvals, approved by others.
 */
function staged(
  req: GateRequest,
  policy: Exclude<GatePolicy, { policy: "deny" }>,
): {
  policy: Exclude<GatePolicy, { policy: "deny" }>;
  approvalsAfterConfirm?: PendingRecord["approvalsAfterConfirm"];
} {
  if (req.actor.kind !== "workflow" || policy.policy !== "approve") return { policy };
  return {
    policy: { policy: "confirm" },
    approvalsAfterConfirm: { approvalsRequired: policy.approvers, approverRole: policy.approver_role },
  };
}

/** Stores the pending request and returns the card(s) to show; throws when the policy is "deny". */
export async function openGate(
  rt: Runtime,
  req: GateRequest,
): Promise<{ record: PendingRecord; effects: Effect[] }> {
  const { policy, approvalsAfterConfirm } = staged(req, gatePolicy(rt, req));
  const now = rt.deps.now();
  const display = await displayOf(req.entry, req.impact, req.client);
  const record: PendingRecord = {
    id: rt.newId(),
    kind: "request",
    status: "pending",
    commandId: req.entry.id,
    args: req.args,
    commandText: req.commandText,
    ...requesterOf(req.actor),
    ...(approvalsAfterConfirm ? { approvalsAfterConfirm } : {}),
    ...(req.control?.rule ? { rule: req.control.rule } : {}),
    ...(req.control?.reason ? { reason: req.control.reason } : {}),
    ...(req.control?.breakGlass ? { breakGlass: req.control.breakGlass } : {}),
    channelId: req.actor.channelId,
    array: req.client.name,
    requestId: req.requestId,
    ...(req.cls ? { destructiveClass: req.cls } : {}),
    policy: policy.policy,
    approvalsRequired: policy.policy === "approve" ? policy.approvers : 0,
    approverRole: policy.policy === "approve" ? policy.approver_role : req.entry.command.role,
    approvals: [],
    fingerprint: fingerprintOf(req.impact.state),
    state: req.impact.state,
    planned: canonicalPlan(req.impact, req.client.name),
    display,
    ...(req.impact.typeToConfirm === undefined ? {} : { typeToConfirm: req.impact.typeToConfirm }),
    ...(req.secrets?.length ? { secrets: req.secrets.map((f) => ({ ...f })) } : {}),
    createdAt: now,
    expiresAt: now + rt.deps.config.destructive.expiry,
    updatedAt: now,
    messages: [],
  };
  await rt.deps.store.create(record);
  // A change through a freeze waits for an admin's review from the moment it is asked for.
  if (req.control?.breakGlass)
    await rt.control.addBreakGlass({
      id: req.requestId,
      at: now,
      requester: record.requester,
      command: commandPath(req.entry.id),
      array: record.array,
      ...req.control.breakGlass,
      pendingId: record.id,
    });
  const card = requestCard(record, display, now, rt.deps.config.time_zone);
  if (policy.policy === "confirm") return { record, effects: [{ kind: "reply", message: card }] };
  return { record, effects: approvalEffects(rt, record, now) };
}

/**
 * The approval card, posted in the request's channel and the approvers channel, and the requester's note saying
 * where it went. Used when a request opens as an approval and when a confirmed workflow change becomes one.
 */
export function approvalEffects(rt: Runtime, record: PendingRecord, now: number): Effect[] {
  const { display } = record;
  const card = requestCard(record, display, now, rt.deps.config.time_zone);
  // The approvers channel gets its own copy; both are tracked so every later update reaches both.
  const approvers = rt.deps.config.destructive.approvals_channel;
  const channels = [record.channelId];
  if (approvers !== undefined && approvers !== record.channelId) channels.push(approvers);
  const where =
    channels.length > 1 ? rich`in this channel and in ${new Rich(`<#${approvers}>`)}` : rich`in this channel`;
  const ack = message(`Approval requested for ${display.title}`, [
    {
      type: "section",
      text: rich`Posted an approval request for *${display.title}* ${where}. It needs ${record.approvalsRequired} approval${record.approvalsRequired === 1 ? "" : "s"} from someone other than ${who(record.requester)} with the ${record.approverRole} role.`,
    },
  ]);
  return [
    ...channels.map(
      (channelId): Effect => ({ kind: "post", channelId, message: card, trackPending: record.id }),
    ),
    { kind: "reply", message: ack },
  ];
}
