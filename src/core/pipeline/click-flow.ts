/**
 * Button clicks on gated requests and offers: Confirm (requester only), Approve (someone else with the
 * approver role, checked at click time), Deny (veto by an approver, or cancel by the requester), and the
 * follow-up offer (Recover). A click acts only after winning the store's atomic claim, so two clicks at the
 * same moment carry a request out once.
 */

import { type ErrorCode, errorCode, UserFacingError } from "../../errors.js";
import { type Logger, lazyChild } from "../../logger.js";
import { withTrace } from "../../trace.js";
import { canDecide, requesterIds } from "../access/actors.js";
import {
  assertMayApprove,
  claim,
  confirmThenApprove,
  deny,
  expiredOutcome,
} from "../approvals/click-decide.js";
import { executePending, type Outcome, staleBeforePrompt, staleCard } from "../approvals/execute-pending.js";
import { cardEffects, requestCard, who } from "../approvals/gate-messages.js";
import { assertOpen, typedOk } from "../approvals/pending-checks.js";
import type { PendingRecord } from "../approvals/pending-store.js";
import { type AuditDecision, auditRecord, roleTrail } from "../audit/audit.js";
import { accessCard, grantAccess } from "../change-control/access.js";
import { ACTIONS } from "../context/pipeline-deps.js";
import type { ClickInput, Effect } from "../context/pipeline-types.js";
import { runOffer } from "./offer-flow.js";
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
  const audit = (decision: AuditDecision, outcome: "ok" | "error", code?: ErrorCode, approvedBy?: string[]) =>
    rt.auditor.record(
      auditRecord({
        id: clickId,
        by: input.actor,
        started,
        ended: rt.deps.now(),
        arrays: rec ? [rec.array] : [],
        command: rec?.commandId ?? "unknown",
        args: rec?.args ?? {},
        role: roles.role(),
        decision,
        approvedBy,
        pendingId: rec?.id,
        requester: rec?.requester,
        sent: rec?.planned,
        outcome,
        errorCode: code,
      }),
    );
  try {
    rec = await rt.deps.store.get(input.value);
    if (!rec)
      throw new UserFacingError("PENDING_UNKNOWN", "This request is no longer known; nothing was done.");
    // A request on a fleet member reached through its fleet: known again after a restart or on another replica.
    await rt.deps.pool.discover?.(rec.array);
    // A click carries on its request's trace: its decision, execution and array calls are found by that id.
    const asked = rec;
    const result = await withTrace(asked.requestId, () => route(rt, asked, input, log));
    if ("check" in result) {
      // Settled after the dialog opens: a request that can no longer happen is voided, audited as this click's
      // decision; a check that failed answers as the click would have (the submission checks again anyway).
      const recheck = withTrace(asked.requestId, async (): Promise<Effect[]> => {
        try {
          const out = await result.check;
          if (!out) return [];
          await audit(out.decision, out.ok ? "ok" : "error", out.code, out.approvedBy);
          return out.effects;
        } catch (err) {
          await audit("denied", "error", errorCode(err));
          return rt.errorEffects(err, clickId, log);
        }
      });
      return [promptFor(rec, input, recheck)];
    }
    const { decision, ok, code, approvedBy } = result;
    await withTrace(asked.requestId, () => audit(decision, ok ? "ok" : "error", code, approvedBy));
    return result.effects;
  } catch (err) {
    // A click that failed carried nothing out: recorded as denied, the request stays as it was.
    const refused = () => audit("denied", "error", errorCode(err));
    await (rec ? withTrace(rec.requestId, refused) : refused());
    return rt.errorEffects(err, clickId, log);
  }
}

async function route(
  rt: Runtime,
  rec: PendingRecord,
  input: ClickInput,
  log: Logger,
): Promise<Outcome | Prompt> {
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

async function confirm(
  rt: Runtime,
  rec: PendingRecord,
  input: ClickInput,
  log: Logger,
): Promise<Outcome | Prompt> {
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

async function approve(
  rt: Runtime,
  rec: PendingRecord,
  input: ClickInput,
  log: Logger,
): Promise<Outcome | Prompt> {
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

/**
 * A dialog to open (a typed name, secrets), and the check that the request can still happen, already running:
 * the dialog does not wait for the array (Slack's trigger lasts 3 s, and a slow array's recheck took two of its
 * round trips off every approval through the dialog). The check's outcome, when it voids the request, follows.
 */
interface Prompt {
  check: Promise<Outcome | undefined>;
}

/**
 * Opens the dialog, and voids the request if it can no longer happen, so nobody types a name for nothing. A double
 * click shares the first click's check; its outcome is the first click's to tell.
 */
function promptUnlessStale(rt: Runtime, rec: PendingRecord, input: ClickInput, log: Logger): Prompt {
  const running = rt.promptChecks.get(rec.id);
  if (running)
    return {
      check: running.then(
        () => undefined,
        () => undefined,
      ),
    };
  const check = voidIfStale(rt, rec, input, log);
  rt.promptChecks.set(rec.id, check);
  void check.then(
    () => rt.promptChecks.delete(rec.id),
    () => rt.promptChecks.delete(rec.id),
  );
  return { check };
}

async function voidIfStale(
  rt: Runtime,
  rec: PendingRecord,
  input: ClickInput,
  log: Logger,
): Promise<Outcome | undefined> {
  const stale = await staleBeforePrompt(rt, rec, log);
  if (!stale) return undefined;
  const claimed = await rt.deps.store.claim(rec.id, "pending");
  if (!claimed) {
    const now = await rt.deps.store.get(rec.id);
    assertOpen(now ?? rec, rt.deps.config.time_zone);
    return undefined;
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

/** Every secret the request asks for was typed (a click on the button itself carries none: it opens the prompt). */
function secretsGiven(rec: PendingRecord, input: ClickInput): boolean {
  return (rec.secrets ?? []).every((f) => (input.secrets?.[f.key] ?? "").trim() !== "");
}

function promptFor(rec: PendingRecord, input: ClickInput, recheck: Promise<Effect[]>): Effect {
  const { actionId } = input;
  if (!secretsGiven(rec, input) && typedOk(rec, input)) {
    return {
      kind: "secret",
      pendingId: rec.id,
      title: rec.display.title,
      fields: rec.secrets ?? [],
      actionId,
      recheck,
    };
  }
  return {
    kind: "prompt",
    pendingId: rec.id,
    title: rec.display.title,
    label: `Type ${rec.typeToConfirm ?? ""} to go ahead`,
    actionId,
    recheck,
  };
}
