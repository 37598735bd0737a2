/**
 * Button clicks on gated requests and offers: Confirm (requester only), Approve (someone else with the
 * approver role, checked at click time), Deny (veto by an approver, or cancel by the requester), and the
 * follow-up offer (Recover). A click acts only after winning the store's atomic claim, so two clicks at the
 * same moment carry a request out once.
 */

import { type ErrorCode, errorCode, UserFacingError } from "../errors.js";
import { type Logger, lazyChild } from "../logger.js";
import { canDecide, requesterIds } from "./actors.js";
import { type AuditDecision, roleTrail, withRole } from "./audit.js";
import { assertRole, forbidden } from "./authz.js";
import { accessCard, grantAccess } from "./change-control/access.js";
import { isMember } from "./change-control/match.js";
import {
  executePending,
  failClaimOnError,
  type Outcome,
  staleBeforePrompt,
  staleCard,
} from "./execute-pending.js";
import { approvalEffects } from "./gate.js";
import { cardEffects, closedCard, requestCard, who } from "./gate-messages.js";
import { message, rich } from "./message.js";
import { runOffer } from "./offer-flow.js";
import { assertOpen, typedOk } from "./pending-checks.js";
import type { PendingRecord } from "./pending-store.js";
import { ACTIONS } from "./pipeline-deps.js";
import type { ClickInput, Effect } from "./pipeline-types.js";
import { roleAtLeast } from "./roles.js";
import type { Runtime } from "./runtime.js";

export async function handleClickInput(base: Runtime, input: ClickInput, clickId: string): Promise<Effect[]> {
  const roles = roleTrail(base.access, input.actor.userId);
  const rt: Runtime = { ...base, access: roles.access };
  const started = rt.deps.now();
  const log = lazyChild(rt.log, {
    reqId: clickId,
    user: input.actor.userId,
    action: input.actionId,
    pendingId: input.value,
  });
  let rec: PendingRecord | undefined;
  let decision: AuditDecision = "denied";
  const audit = (outcome: "ok" | "error", code?: ErrorCode, approvedBy?: string[]) =>
    rt.auditor.record({
      id: clickId,
      at: new Date(started).toISOString(),
      userId: input.actor.userId,
      ...(input.actor.displayName ? { displayName: input.actor.displayName } : {}),
      channelId: input.actor.channelId,
      arrays: rec ? [rec.array] : [],
      command: rec?.commandId ?? "unknown",
      args: rec?.args ?? {},
      ...withRole(roles.role()),
      decision,
      ...(approvedBy ? { approvedBy } : {}),
      ...(rec ? { pendingId: rec.id, requester: rec.requester } : {}),
      ...(rec?.planned ? { sent: rec.planned } : {}),
      outcome,
      ...(code ? { errorCode: code } : {}),
      durationMs: rt.deps.now() - started,
    });
  try {
    rec = await rt.deps.store.get(input.value);
    if (!rec)
      throw new UserFacingError("PENDING_UNKNOWN", "This request is no longer known; nothing was done.");
    const result = await route(rt, rec, input, log);
    if (result === "prompt") return [promptFor(rec, input)];
    decision = result.decision;
    await audit(result.ok ? "ok" : "error", result.code, result.approvedBy);
    return result.effects;
  } catch (err) {
    await audit("error", errorCode(err));
    return rt.errorEffects(err, clickId, log);
  }
}

async function route(
  rt: Runtime,
  rec: PendingRecord,
  input: ClickInput,
  log: Logger,
): Promise<Outcome | "prompt"> {
  // Only people decide: an assistant's or a workflow step's principal confirms, approves or denies nothing.
  if (!canDecide(input.actor))
    throw new UserFacingError(
      "ASSISTANT_CANNOT_DECIDE",
      "An assistant cannot confirm, approve, deny or run offers; a person must decide. Nothing was done.",
    );
  // A click that would carry a change out waits while the store cannot record it (a full data volume): the
  // request stays as it was, and the same click works once there is room again.
  if (input.actionId !== ACTIONS.deny) rt.deps.assertStoreWritable?.();
  switch (input.actionId) {
    case ACTIONS.confirm:
      return confirm(rt, rec, input, log);
    case ACTIONS.approve:
      return approve(rt, rec, input, log);
    case ACTIONS.deny:
      return deny(rt, rec, input);
    case ACTIONS.offer:
      return runOffer(rt, rec, input, log);
    default:
      // Only a forged or stale payload names a button we never drew: say so, do nothing.
      throw new UserFacingError("UNKNOWN_ACTION", "This button is not one the bot offers; nothing was done.");
  }
}

/** Wins the claim or explains why not; an expired request is closed on the spot. */
async function claim(
  rt: Runtime,
  rec: PendingRecord,
  clickRef: ClickInput["ref"],
): Promise<PendingRecord | Outcome> {
  const claimed = await rt.deps.store.claim(rec.id, "pending");
  if (!claimed) {
    const now = await rt.deps.store.get(rec.id);
    assertOpen(now ?? { ...rec, status: "executed" }, rt.deps.config.time_zone);
    throw new UserFacingError(
      "PENDING_BUSY",
      "Another click is acting on this request right now; try again in a moment.",
    );
  }
  if (rt.deps.now() >= claimed.expiresAt) {
    const expired = await rt.deps.store.update(rec.id, { status: "expired", updatedAt: rt.deps.now() });
    return expiredOutcome(expired ?? claimed, clickRef);
  }
  return claimed;
}

function expiredOutcome(rec: PendingRecord, clickRef: ClickInput["ref"]): Outcome {
  const msg = closedCard(
    rec,
    rec.display,
    rich`Expired before it was ${rec.policy === "approve" ? "approved" : "confirmed"}. Nothing was changed.`,
  );
  return {
    effects: cardEffects(rec, clickRef, msg),
    decision: "expired",
    ok: false,
    code: "PENDING_EXPIRED",
  };
}

async function confirm(
  rt: Runtime,
  rec: PendingRecord,
  input: ClickInput,
  log: Logger,
): Promise<Outcome | "prompt"> {
  if (rec.policy !== "confirm")
    throw new UserFacingError("WRONG_BUTTON", "This request needs approvals, not a confirmation.");
  if (input.actor.userId !== rec.requester.userId) {
    throw new UserFacingError(
      "NOT_REQUESTER",
      `Only ${who(rec.requester)}, who asked for this, can confirm it.`,
    );
  }
  assertOpen(rec, rt.deps.config.time_zone);
  if (!typedOk(rec, input) || !secretsGiven(rec, input)) return promptUnlessStale(rt, rec, input, log);
  if (rec.approvalsAfterConfirm) return confirmThenApprove(rt, rec, rec.approvalsAfterConfirm, input);
  const claimed = await claim(rt, rec, input.ref);
  if (!("id" in claimed)) return claimed;
  return executePending(rt, claimed, input.ref, log, input.secrets);
}

/**
 * A workflow step's change, confirmed by the person Slack vouched for: now theirs, it waits for the approvals its
 * class asks, from people other than them. Their role is checked now, as a requester's is when a change runs.
 */
async function confirmThenApprove(
  rt: Runtime,
  rec: PendingRecord,
  then: NonNullable<PendingRecord["approvalsAfterConfirm"]>,
  input: ClickInput,
): Promise<Outcome> {
  const role = await rt.access.roleOn(input.actor.userId, rt.deps.pool.get(rec.array));
  assertRole("Confirming this request", rec.approverRole, role, rec.array);
  const claimed = await claim(rt, rec, input.ref);
  if (!("id" in claimed)) return claimed;
  const now = rt.deps.now();
  const next = await failClaimOnError(rt, rec.id, async () => {
    const updated = await rt.deps.store.update(rec.id, {
      status: "pending",
      policy: "approve",
      approvalsRequired: then.approvalsRequired,
      approverRole: then.approverRole,
      approvalsAfterConfirm: undefined,
      updatedAt: now,
    });
    if (!updated)
      throw new UserFacingError("PENDING_UNKNOWN", "This request is no longer known; nothing was done.");
    return updated;
  });
  const line = rich`Confirmed by ${who(input.actor)}: ${next.display.title} now waits for ${next.approvalsRequired} approval${next.approvalsRequired === 1 ? "" : "s"} from someone else with the ${next.approverRole} role.`;
  const confirmed = message(`Confirmed: ${next.display.title}`, [{ type: "section", text: line }], {
    visibility: "ephemeral",
  });
  return {
    effects: [...cardEffects(rec, input.ref, confirmed), ...approvalEffects(rt, next, now)],
    decision: "confirmed",
    ok: true,
  };
}

async function approve(
  rt: Runtime,
  rec: PendingRecord,
  input: ClickInput,
  log: Logger,
): Promise<Outcome | "prompt"> {
  if (rec.policy !== "approve")
    throw new UserFacingError("WRONG_BUTTON", "This request needs a confirmation, not approvals.");
  if (requesterIds(rec).has(input.actor.userId)) {
    throw new UserFacingError(
      "APPROVAL_BY_REQUESTER",
      input.actor.userId === rec.requester.userId
        ? "You asked for this, so it needs approval from someone else."
        : "This was asked for on your behalf, so it needs approval from someone else.",
    );
  }
  await assertMayApprove(rt, rec, input.actor.userId);
  // Early answers from the record read before the (possibly slow) identity lookup; the store's approval
  // compare-and-set below decides for real, against the record as it is now. A request that is no longer
  // pending says so first: the one approval it needed may be this person's, being carried out right now.
  assertOpen(rec, rt.deps.config.time_zone);
  if (rec.approvals.some((a) => a.userId === input.actor.userId)) throw duplicateApproval();
  if (!typedOk(rec, input)) return promptUnlessStale(rt, rec, input, log);
  const step = await rt.deps.store.approve(rec.id, {
    userId: input.actor.userId,
    ...(input.actor.displayName ? { displayName: input.actor.displayName } : {}),
    at: rt.deps.now(),
  });
  switch (step.kind) {
    case "duplicate":
      throw duplicateApproval();
    case "closed":
      assertOpen(step.record ?? { ...rec, status: "executed" }, rt.deps.config.time_zone);
      throw new UserFacingError("PENDING_CLOSED", "This request was decided a moment ago; nothing was done.");
    case "expired":
      return expiredOutcome(step.record, input.ref);
    case "claimed":
      // An access request's last approval grants the role; a change's carries it out.
      if (step.record.kind === "access") return grantAccess(rt, step.record, input.ref);
      return executePending(rt, step.record, input.ref, log);
    case "recorded": {
      const card =
        step.record.kind === "access"
          ? accessCard(step.record, rt.deps.now(), rt.deps.config.time_zone)
          : requestCard(step.record, step.record.display, rt.deps.now(), rt.deps.config.time_zone);
      return {
        effects: cardEffects(step.record, input.ref, card),
        decision: "approval_recorded",
        ok: true,
      };
    }
  }
}

/** Opens the typed-name dialog only for a request that can still happen; otherwise voids it on the spot. */
async function promptUnlessStale(
  rt: Runtime,
  rec: PendingRecord,
  input: ClickInput,
  log: Logger,
): Promise<Outcome | "prompt"> {
  const stale = await staleBeforePrompt(rt, rec, log);
  if (!stale) return "prompt";
  const claimed = await rt.deps.store.claim(rec.id, "pending");
  if (!claimed) {
    const now = await rt.deps.store.get(rec.id);
    assertOpen(now ?? rec, rt.deps.config.time_zone);
    return "prompt";
  }
  await rt.deps.store.update(rec.id, { status: "voided", outcome: stale.code, updatedAt: rt.deps.now() });
  return {
    effects: cardEffects(claimed, input.ref, staleCard(claimed, stale)),
    decision: "voided",
    ok: false,
    code: stale.code,
  };
}

function duplicateApproval(): UserFacingError {
  return new UserFacingError(
    "APPROVAL_DUPLICATE",
    "You have already approved this request; it needs someone else too.",
  );
}

async function deny(rt: Runtime, rec: PendingRecord, input: ClickInput): Promise<Outcome> {
  const isRequester = input.actor.userId === rec.requester.userId;
  // A rule's veto members deny whatever their role or the request's stage; so do its approvers.
  const groups = rec.rule ? await rt.deps.identity.groupsOf(input.actor.userId) : [];
  const vetoes =
    !isRequester &&
    (isMember(rec.rule?.veto, input.actor.userId, groups) ||
      isMember(rec.rule?.approvers, input.actor.userId, groups));
  if (!isRequester && !vetoes) {
    if (rec.policy !== "approve") {
      throw new UserFacingError(
        "NOT_REQUESTER",
        `Only ${who(rec.requester)}, who asked for this, can cancel it.`,
      );
    }
    if (rec.rule?.approvers) throw notInRule(rec);
    const role = await rt.access.roleOn(input.actor.userId, rt.deps.pool.get(rec.array));
    if (!roleAtLeast(role, rec.approverRole))
      throw forbidden("Denying this request", rec.approverRole, role, rec.array);
  }
  assertOpen(rec, rt.deps.config.time_zone);
  const claimed = await rt.deps.store.claim(rec.id, "pending");
  if (!claimed) {
    const now = await rt.deps.store.get(rec.id);
    if (now) assertOpen(now, rt.deps.config.time_zone);
    throw new UserFacingError(
      "PENDING_CLOSED",
      "This request was decided a moment ago; nothing more was done.",
    );
  }
  const status = isRequester ? "cancelled" : "vetoed";
  const by = {
    userId: input.actor.userId,
    ...(input.actor.displayName ? { displayName: input.actor.displayName } : {}),
  };
  await rt.deps.store.update(rec.id, { status, decidedBy: by, updatedAt: rt.deps.now() });
  const headline = isRequester
    ? rich`Cancelled by ${who(by)}. Nothing was changed.`
    : rich`Denied by ${who(by)}. Nothing was changed.`;
  return {
    effects: cardEffects(claimed, input.ref, closedCard(claimed, claimed.display, headline)),
    decision: status,
    ok: true,
  };
}

/** Every secret the request asks for was typed (a click on the button itself carries none: it opens the prompt). */
function secretsGiven(rec: PendingRecord, input: ClickInput): boolean {
  return (rec.secrets ?? []).every((f) => (input.secrets?.[f.key] ?? "").trim() !== "");
}

function promptFor(rec: PendingRecord, input: ClickInput): Effect {
  const { actionId } = input;
  if (!secretsGiven(rec, input) && typedOk(rec, input)) {
    return {
      kind: "secret",
      pendingId: rec.id,
      title: rec.display.title,
      fields: rec.secrets ?? [],
      actionId,
    };
  }
  return {
    kind: "prompt",
    pendingId: rec.id,
    title: rec.display.title,
    label: `Type ${rec.typeToConfirm ?? ""} to go ahead`,
    actionId,
  };
}

/**
 * Whether this person's Approve counts: under an approval rule that names its approvers, being one of them (by
 * id or user group) is what counts, whatever their role; otherwise the approver role on the array.
 */
async function assertMayApprove(rt: Runtime, rec: PendingRecord, userId: string): Promise<void> {
  if (rec.rule?.approvers) {
    const groups = await rt.deps.identity.groupsOf(userId);
    if (!isMember(rec.rule.approvers, userId, groups)) throw notInRule(rec);
    return;
  }
  const role = await rt.access.roleOn(userId, rt.deps.pool.get(rec.array));
  assertRole("Approving this request", rec.approverRole, role, rec.array);
}

function notInRule(rec: PendingRecord): UserFacingError {
  return new UserFacingError(
    "APPROVER_NOT_IN_RULE",
    `This request falls under the approval rule ${rec.rule?.label ?? ""}, which takes approvals only from the people it names; you are not one of them. Nothing was done.`,
  );
}
