/**
 * Carrying out a gated request after its last confirmation or approval. The requester's role is checked again,
 * the array state is read again and compared with the fingerprint the request was shown with (a difference
 * voids it and says what changed), and only then does the command run.
 */

import { errorCode, InternalError, isUserFacing, toUserMessage } from "../errors.js";
import type { Logger } from "../logger.js";
import type { AuditDecision } from "./audit.js";
import { forbidden } from "./authz.js";
import { commandPath } from "./command-path.js";
import { describeStateChange, fingerprintOf } from "./fingerprint.js";
import { closedCard, doneLine, who, withDecisionLine } from "./gate-messages.js";
import { type Message, rich } from "./message.js";
import type { PendingRecord } from "./pending-store.js";
import type { Effect, MessageRef } from "./pipeline-types.js";
import { type Role, roleAtLeast } from "./roles.js";
import { runOnArray } from "./run-command.js";
import type { Runtime } from "./runtime.js";

export interface Outcome {
  effects: Effect[];
  decision: AuditDecision;
  ok: boolean;
  code?: string;
}

/** Updates every known copy of the card; with none known, replies instead. */
export function cardEffects(rec: PendingRecord, clickRef: MessageRef | undefined, msg: Message): Effect[] {
  const refs = [...rec.messages];
  if (clickRef && !refs.some((r) => r.channelId === clickRef.channelId && r.ts === clickRef.ts))
    refs.push(clickRef);
  if (refs.length === 0) return [{ kind: "reply", message: msg }];
  return refs.map((ref) => ({ kind: "update", ref, message: msg }));
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
): Promise<Outcome> {
  return failClaimOnError(rt, rec.id, () => execute(rt, rec, clickRef, log));
}

async function execute(
  rt: Runtime,
  rec: PendingRecord,
  clickRef: MessageRef | undefined,
  log: Logger,
): Promise<Outcome> {
  const decision: AuditDecision = rec.policy === "approve" ? "approved" : "confirmed";
  const entry = rt.deps.registry.byId(rec.commandId);
  if (!entry?.command.impact) {
    throw new InternalError(
      "PENDING_COMMAND_UNKNOWN",
      `pending ${rec.id} names ${rec.commandId}, which has no impact`,
    );
  }
  const finish = async (
    status: PendingRecord["status"],
    outcome: string,
    headline: ReturnType<typeof rich>,
    details: string[] = [],
  ) => {
    await rt.deps.store.update(rec.id, { status, outcome, updatedAt: rt.deps.now() });
    return cardEffects(rec, clickRef, closedCard(rec, rec.display, headline, details));
  };

  const client = rt.deps.pool.get(rec.array);
  const role = await rt.access.roleOn(rec.requester.userId, client);
  if (!roleAtLeast(role, entry.command.role)) {
    const err = forbidden(`\`${commandPath(entry.id)}\``, entry.command.role, role, rec.array);
    const effects = await finish(
      "failed",
      "FORBIDDEN",
      rich`Not run: ${who(rec.requester)} no longer holds the ${entry.command.role} role on ${rec.array}. Nothing was changed.`,
    );
    log.info({ code: err.code }, "requester lost the role before execution");
    return { effects, decision: "denied", ok: false, code: "FORBIDDEN" };
  }
  const ctx = rt.contextFor(
    client,
    { ...rec.requester, channelId: rec.channelId, role: role as Role },
    rec.requestId,
    log,
  );
  try {
    const impact = await entry.command.impact(rec.args, ctx);
    if (fingerprintOf(impact.state) !== rec.fingerprint) {
      const changes = describeStateChange(rec.state, impact.state);
      const effects = await finish(
        "voided",
        "STATE_CHANGED",
        rich`Not run: the array ${rec.array} changed since this was requested. Nothing was changed; run the command again to see the current impact.`,
        changes,
      );
      return { effects, decision: "voided", ok: false, code: "STATE_CHANGED" };
    }
    const result = await runOnArray(rt, entry, rec.args, ctx, impact);
    await rt.deps.store.update(rec.id, { status: "executed", outcome: "ok", updatedAt: rt.deps.now() });
    // A change is announced in the channel: an approval card is there already and becomes the result; a
    // confirmation prompt was private, so it shrinks to a "done" line and the result is answered in channel.
    const announced: Message = { ...withDecisionLine(result, rec), visibility: "in_channel" };
    if (rec.policy === "approve")
      return { effects: cardEffects(rec, clickRef, announced), decision, ok: true };
    const effects: Effect[] = [
      ...cardEffects(rec, clickRef, doneLine(rec)),
      { kind: "reply", message: announced },
    ];
    return { effects, decision, ok: true };
  } catch (err) {
    if (!isUserFacing(err)) log.error({ err, pendingId: rec.id }, "gated request failed");
    const effects = await finish(
      "failed",
      errorCode(err),
      rich`Failed: ${toUserMessage(err, rec.requestId)}`,
    );
    return { effects, decision, ok: false, code: errorCode(err) };
  }
}
