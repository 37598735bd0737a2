/**
 * Who may decide a gated request, and the decisions beside Approve: the claim a click must win, a rule's approvers
 * and vetoes (src/core/change-control/), the requester's Deny, and the confirmation that turns a workflow step's
 * change into an approval request. click-flow.ts routes the clicks here.
 */
import { UserFacingError } from "../../errors.js";
import { assertRole, forbidden } from "../access/authz.js";
import { isMember } from "../access/change-rules.js";
import { roleAtLeast } from "../access/roles.js";
import type { ClickInput } from "../context/pipeline-types.js";
import type { Runtime } from "../pipeline/runtime.js";
import { message, rich } from "../presentation/message.js";
import { failClaimOnError, type Outcome } from "./execute-pending.js";
import { approvalEffects } from "./gate.js";
import { cardEffects, closedCard, who } from "./gate-messages.js";
import { assertOpen } from "./pending-checks.js";
import type { PendingRecord } from "./pending-store.js";

/** Wins the claim or explains why not; an expired request is closed on the spot. */
export async function claim(
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

export function expiredOutcome(rec: PendingRecord, clickRef: ClickInput["ref"]): Outcome {
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

/**
 * A workflow step's change, confirmed by the person Slack vouched for: now theirs, it waits for the approvals its
 * class asks, from people other than them. Their role is checked now, as a requester's is when a change runs.
 */
export async function confirmThenApprove(
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

export async function deny(rt: Runtime, rec: PendingRecord, input: ClickInput): Promise<Outcome> {
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

/**
 * Whether this person's Approve counts: under an approval rule that names its approvers, being one of them (by
 * id or user group) is what counts, whatever their role; otherwise the approver role on the array.
 */
export async function assertMayApprove(rt: Runtime, rec: PendingRecord, userId: string): Promise<void> {
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
