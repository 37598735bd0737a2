/**
 * Carrying out a gated request after its last confirmation or approval. The requester's role is checked again,
 * the array state is read again and compared with the fingerprint the request was shown with (a difference
 * voids it and says what changed), and only then does the command run.
 */

import { type ErrorCode, errorCode, InternalError, isUserFacing, toUserMessage } from "../../errors.js";
import { urgently } from "../../flashblade/urgency.js";
import type { Logger } from "../../logger.js";
import { forbidden } from "../access/authz.js";
import { isMember } from "../access/change-rules.js";
import { type Role, roleAtLeast } from "../access/roles.js";
import { type AuditDecision, auditRecord, pendingFacts } from "../audit/audit.js";
import type { CommandContext, Impact } from "../catalogue/define-command.js";
import type { Effect, MessageRef } from "../context/pipeline-types.js";
import type { Runtime } from "../pipeline/runtime.js";
import { type Message, message, rich } from "../presentation/message.js";
import { redactMessage } from "../presentation/redact.js";
import { runOnArray } from "../requests/run-command.js";
import { canonicalPlan, describePlanChange, inContext } from "../requests/send-plan.js";
import { commandPath } from "../words/command-path.js";
import { describeStateChange, fingerprintOf } from "./fingerprint.js";
import { cardEffects, closedCard, doneLine, requestCard, who, withDecisionLine } from "./gate-messages.js";
import type { PendingRecord } from "./pending-store.js";
import { withExecutionLease } from "./recovery.js";

export interface Outcome {
  effects: Effect[];
  decision: AuditDecision;
  ok: boolean;
  code?: ErrorCode;
  /** Who let an executed request through, from the record that ran (the audit's `approvedBy`). */
  approvedBy?: string[];
}

/** Runs `work` for a claimed record; if it throws, the record is marked failed so it never stays "claimed". */
export async function failClaimOnError<T>(rt: Runtime, id: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    await rt.deps.store.update(id, { status: "failed", outcome: errorCode(err), updatedAt: rt.deps.now() });
    throw err;
  }
}

/** Carries out a claimed record; whatever happens, the record leaves the "claimed" state. */
export async function executePending(
  rt: Runtime,
  rec: PendingRecord,
  clickRef: MessageRef | undefined,
  log: Logger,
  secrets?: Readonly<Record<string, string>>,
): Promise<Outcome> {
  // Under an execution lease, so a replica starting meanwhile knows this one is carrying it out.
  const run = () =>
    failClaimOnError(rt, rec.id, () =>
      withExecutionLease(rt, rec, () => execute(rt, rec, clickRef, log, secrets)),
    );
  // An approved change's array calls (the recheck, the change) are urgent: a second person has just clicked and
  // waits for them, and they are few. A Confirm's are not: at 25 a second in the 1,000-array load, urgent
  // confirms took the places other calls waited for (read p99 770 → 1,314 ms, docs/benchmarks.md).
  return rec.policy === "approve" ? urgently(run) : run();
}

/** Why a request made earlier may not run now, read from the array again: what changed, or why it cannot. */
export interface Stale {
  code: "STATE_CHANGED" | "PRECONDITION_CHANGED" | "PLAN_CHANGED";
  details: string[];
}

/** Recomputes the impact as the requester; a failed precondition or a different fingerprint makes it stale. */
export async function recheckImpact(
  rt: Runtime,
  rec: PendingRecord,
  ctx: CommandContext,
): Promise<{ impact: Impact } | { stale: Stale }> {
  const entry = rt.deps.registry.byId(rec.commandId);
  if (!entry?.command.impact) {
    throw new InternalError(
      "PENDING_COMMAND_UNKNOWN",
      `pending ${rec.id} names ${rec.commandId}, which has no impact`,
    );
  }
  let impact: Impact;
  try {
    impact = await inContext(
      await entry.command.impact(rec.args, { ...ctx, recheck: true, array: ctx.array }),
      ctx.array,
    );
  } catch (err) {
    if (isUserFacing(err)) return { stale: { code: "PRECONDITION_CHANGED", details: [err.message] } };
    throw err;
  }
  if (fingerprintOf(impact.state) !== rec.fingerprint)
    return { stale: { code: "STATE_CHANGED", details: describeStateChange(rec.state, impact.state) } };
  // What is sent is what the card showed: any planned request that differs voids it, even where the state is
  // equal (a record without a stored plan, from before plans were kept, compares as planning nothing).
  const plan = describePlanChange(rec.planned ?? [], canonicalPlan(impact, ctx.arrayName));
  if (plan.length > 0) return { stale: { code: "PLAN_CHANGED", details: plan } };
  return { impact };
}

/** The card of a request that was not run because the array changed under it. */
export function staleCard(rec: PendingRecord, stale: Stale): Message {
  const headline =
    stale.code === "STATE_CHANGED"
      ? rich`Not run: the array ${rec.array} changed since this was requested. Nothing was changed; run the command again to see the current impact.`
      : stale.code === "PLAN_CHANGED"
        ? rich`Not run: the requests it would send now differ from those shown here. Nothing was changed; run the command again to see the current requests.`
        : rich`Not run: ${stale.details[0] ?? "the array changed since this was requested"} Nothing was changed.`;
  return closedCard(rec, rec.display, headline, stale.code === "PRECONDITION_CHANGED" ? [] : stale.details);
}

/** The requester's context for carrying out `rec`, or undefined when they lost the role. */
async function requesterContext(rt: Runtime, rec: PendingRecord, log: Logger) {
  const entry = rt.deps.registry.byId(rec.commandId);
  if (!entry) throw new InternalError("PENDING_COMMAND_UNKNOWN", `pending ${rec.id} names ${rec.commandId}`);
  const client = rt.deps.pool.get(rec.array);
  const role = await rt.access.roleOn(rec.requester.userId, client);
  if (!roleAtLeast(role, entry.command.role)) return { entry, role, ctx: undefined };
  const ctx = rt.contextFor(
    client,
    { ...rec.requester, channelId: rec.channelId, role: role as Role },
    rec.requestId,
    log,
  );
  return { entry, role, ctx };
}

/**
 * Before asking for the typed name (eradication), checks the request still makes sense, so nobody is asked to
 * type a name for something that can no longer happen. Undefined when it may go on.
 */
export async function staleBeforePrompt(
  rt: Runtime,
  rec: PendingRecord,
  log: Logger,
): Promise<Stale | undefined> {
  const { ctx } = await requesterContext(rt, rec, log);
  if (!ctx) return undefined; // the role check at execution explains this one
  // Urgent, as the execution's: the dialog opens after it.
  const checked = await urgently(() => recheckImpact(rt, rec, ctx));
  return "stale" in checked ? checked.stale : undefined;
}

async function execute(
  rt: Runtime,
  rec: PendingRecord,
  clickRef: MessageRef | undefined,
  log: Logger,
  secrets: Readonly<Record<string, string>> | undefined,
): Promise<Outcome> {
  const decision: AuditDecision = rec.policy === "approve" ? "approved" : "confirmed";
  const approvedBy = rec.policy === "approve" ? rec.approvals.map((a) => a.userId) : [rec.requester.userId];
  const decidedBy = rec.policy === "approve" ? rec.approvals.at(-1) : rec.requester;
  const finish = async (
    status: PendingRecord["status"],
    outcome: string,
    headline: ReturnType<typeof rich>,
    details: string[] = [],
  ) => {
    await rt.deps.store.update(rec.id, { status, outcome, updatedAt: rt.deps.now() });
    return cardEffects(rec, clickRef, closedCard(rec, rec.display, headline, details));
  };

  const { entry, role, ctx } = await requesterContext(rt, rec, log);
  if (!ctx) {
    const err = forbidden(`\`${commandPath(entry.id)}\``, entry.command.role, role, rec.array);
    const effects = await finish(
      "failed",
      "FORBIDDEN",
      rich`Not run: ${who(rec.requester)} no longer holds the ${entry.command.role} role on ${rec.array}. Nothing was changed.`,
    );
    log.info({ code: err.code }, "requester lost the role before execution");
    return { effects, decision: "denied", ok: false, code: "FORBIDDEN" };
  }
  const lapsed = await lapsedApprovals(rt, rec);
  if (lapsed.length > 0) return reopen(rt, rec, lapsed, clickRef, log);
  try {
    const checked = await recheckImpact(rt, rec, ctx);
    if ("stale" in checked) {
      await rt.deps.store.update(rec.id, {
        status: "voided",
        outcome: checked.stale.code,
        updatedAt: rt.deps.now(),
      });
      const effects = cardEffects(rec, clickRef, staleCard(rec, checked.stale));
      return { effects, decision: "voided", ok: false, code: checked.stale.code };
    }
    // Written before the array call: if the process dies during it, the trail still shows the change began.
    await rt.auditor.record(
      auditRecord({
        ...pendingFacts(rec),
        id: `${rec.id}.executing`,
        // The one who decided it acts now (named by id alone, as the approvals list names them).
        by: { userId: decidedBy?.userId ?? rec.requester.userId, channelId: rec.channelId },
        started: rt.deps.now(),
        decision: "executing",
        approvedBy,
        outcome: "ok",
      }),
    );
    // Only the secrets the request asked for reach the command, and only for this run.
    const asked = Object.fromEntries((rec.secrets ?? []).map((f) => [f.key, secrets?.[f.key] ?? ""]));
    const runCtx = rec.secrets?.length ? { ...ctx, secrets: asked } : ctx;
    const ran = await runOnArray(rt, entry, rec.args, runCtx, checked.impact);
    // The array has the change now. A store that cannot record it (a failover, a full disk) must not turn the
    // answer into "nothing was changed": the change is announced as done, saying its record is missing; the
    // record stays claimed, and recovery ends it as interrupted, reading the array back.
    let result = ran;
    try {
      await rt.deps.store.update(rec.id, {
        status: "executed",
        outcome: "ok",
        // A secret shown once (a new access key) is never kept, not even for the requester's later status question.
        result: ran.secret ? "The answer held a secret, shown once and not kept." : redactMessage(ran).text,
        updatedAt: rt.deps.now(),
        ...(decidedBy ? { decidedBy: { userId: decidedBy.userId, ...nameOf(decidedBy) } } : {}),
      });
    } catch (err) {
      log.error({ err, pendingId: rec.id }, "change carried out, but the state store could not record it");
      result = {
        ...ran,
        blocks: [
          ...ran.blocks,
          {
            type: "context",
            text: rich`Carried out on ${rec.array}. The bot's state store could not record it just now (${errorCode(err)}); its card may later read "interrupted". Do not run it again.`,
          },
        ],
      };
    }
    // A change is announced in the channel: an approval card is there already and becomes the result; a
    // confirmation prompt was private, so it shrinks to a "done" line and the result is answered in channel.
    const announced: Message = { ...withDecisionLine(result, rec), visibility: "in_channel" };
    // A secret shown once never lands on a channel card: an approved request's requester is not the clicker (an
    // assistant's never can be), so the card says it was withheld and the secret is not kept anywhere.
    if (rec.policy === "approve" && result.secret)
      return { effects: cardEffects(rec, clickRef, withheldLine(rec)), decision, ok: true, approvedBy };
    if (rec.policy === "approve")
      return { effects: cardEffects(rec, clickRef, announced), decision, ok: true, approvedBy };
    const effects: Effect[] = [
      ...cardEffects(rec, clickRef, doneLine(rec)),
      { kind: "reply", message: announced },
    ];
    return { effects, decision, ok: true, approvedBy };
  } catch (err) {
    if (!isUserFacing(err)) log.error({ err, pendingId: rec.id }, "gated request failed");
    const effects = await finish(
      "failed",
      errorCode(err),
      rich`Failed: ${toUserMessage(err, rec.requestId)}`,
    );
    return { effects, decision, ok: false, code: errorCode(err), approvedBy };
  }
}

/**
 * The approvals that no longer count: an approver whose role on the array fell below the approver role since
 * they clicked (demoted, or removed from the mapping). Approvals are checked when they are given and again here,
 * when the last one carries the request out, so a change of mapping in between cannot let a request through.
 */
async function lapsedApprovals(rt: Runtime, rec: PendingRecord): Promise<PendingRecord["approvals"]> {
  if (rec.policy !== "approve") return [];
  const client = rt.deps.pool.get(rec.array);
  const out: PendingRecord["approvals"] = [];
  for (const a of rec.approvals) {
    // Under a rule that names its approvers, membership is what counts, checked again now.
    const approvers = rec.rule?.approvers;
    const still = approvers
      ? isMember(approvers, a.userId, await rt.deps.identity.groupsOf(a.userId))
      : roleAtLeast(await rt.access.roleOn(a.userId, client), rec.approverRole);
    if (!still) out.push(a);
  }
  return out;
}

/** Puts the request back to pending without the lapsed approvals; the card says whose no longer count. */
async function reopen(
  rt: Runtime,
  rec: PendingRecord,
  lapsed: PendingRecord["approvals"],
  clickRef: MessageRef | undefined,
  log: Logger,
): Promise<Outcome> {
  const gone = new Set(lapsed.map((a) => a.userId));
  const approvals = rec.approvals.filter((a) => !gone.has(a.userId));
  const now = rt.deps.now();
  const next = (await rt.deps.store.update(rec.id, { status: "pending", approvals, updatedAt: now })) ?? {
    ...rec,
    approvals,
  };
  const card = requestCard(next, next.display, now, rt.deps.config.time_zone);
  const names = lapsed.map(who).join(", ");
  const line = rich`Not run yet: the approval of ${names} no longer counts (no longer ${rec.approverRole} on ${rec.array}). Nothing was changed; it needs ${rec.approvalsRequired - approvals.length} more.`;
  const at = card.blocks.findIndex((b) => b.type === "actions");
  const cut = at === -1 ? card.blocks.length : at;
  const blocks = [
    ...card.blocks.slice(0, cut),
    { type: "section" as const, text: line },
    ...card.blocks.slice(cut),
  ];
  log.info({ lapsed: [...gone] }, "approvals lapsed before execution");
  return {
    effects: cardEffects(next, clickRef, { ...card, blocks }),
    decision: "approval_recorded",
    ok: false,
    code: "APPROVAL_LAPSED",
  };
}

function nameOf(p: { displayName?: string }): { displayName?: string } {
  return p.displayName ? { displayName: p.displayName } : {};
}

/** The card of an approved request whose answer held a secret: done, the secret withheld. */
function withheldLine(rec: PendingRecord): Message {
  const text = rich`Done: ${rec.display.title}. Requested by ${who(rec.requester)}, approved by ${rec.approvals.map(who).join(", ")}. Its answer held a secret, which is shown to no one in a channel and not kept; make a new one in person if it is needed.`;
  return { ...message(`Done: ${rec.display.title}`, [{ type: "section", text }]), visibility: "in_channel" };
}
