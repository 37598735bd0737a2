/**
 * Start-up recovery: a request left "claimed" means the process stopped while carrying it out, so whether the
 * array call happened is unknown. Such records end as "interrupted" (never "being carried out" for a week), their
 * cards say so with what the array shows now, and the audit trail gets a closing record.
 */
import { isUserFacing, toUserMessage } from "../errors.js";
import type { Logger } from "../logger.js";
import { recheckImpact } from "./execute-pending.js";
import { closedCard } from "./gate-messages.js";
import { rich } from "./message.js";
import type { PendingRecord } from "./pending-store.js";
import type { Effect } from "./pipeline-types.js";
import type { Runtime } from "./runtime.js";

/** What the array shows now compared with the state the request was shown with. */
async function currentState(rt: Runtime, rec: PendingRecord, log: Logger): Promise<string[]> {
  try {
    const client = rt.deps.pool.get(rec.array);
    const ctx = rt.contextFor(
      client,
      { ...rec.requester, channelId: rec.channelId, role: "viewer" },
      rec.requestId,
      log,
    );
    const checked = await recheckImpact(rt, rec, ctx);
    if (!("stale" in checked))
      return [`${rec.array} shows no change since the request, so it was most likely not carried out.`];
    if (checked.stale.code === "PRECONDITION_CHANGED") return checked.stale.details;
    return checked.stale.details.map((d) => `Now on ${rec.array}: ${d}`);
  } catch (err) {
    if (!isUserFacing(err))
      log.warn({ err, pendingId: rec.id }, "could not read the array for an interrupted request");
    return [`Could not read ${rec.array} now: ${toUserMessage(err, rec.requestId)}`];
  }
}

/** Ends every request left "claimed" by a stopped process; returns the card updates to make. */
export async function recoverInterrupted(rt: Runtime): Promise<Effect[]> {
  const now = rt.deps.now();
  const interrupted = await rt.deps.store.interruptClaimed(now);
  const effects: Effect[] = [];
  for (const rec of interrupted) {
    const log = rt.log.child({ pendingId: rec.id, command: rec.commandId });
    log.warn("request was being carried out when the bot stopped; marked interrupted");
    await rt.auditor.record({
      id: `${rec.id}.interrupted`,
      at: new Date(now).toISOString(),
      userId: rec.requester.userId,
      ...(rec.requester.displayName ? { displayName: rec.requester.displayName } : {}),
      channelId: rec.channelId,
      arrays: [rec.array],
      command: rec.commandId,
      args: rec.args,
      decision: "interrupted",
      ...(rec.approvals.length > 0 ? { approvedBy: rec.approvals.map((a) => a.userId) } : {}),
      pendingId: rec.id,
      outcome: "error",
      errorCode: "INTERRUPTED",
      durationMs: 0,
    });
    if (rec.kind !== "request" || rec.messages.length === 0) continue;
    const details = await currentState(rt, rec, log);
    const msg = closedCard(
      rec,
      rec.display,
      rich`Interrupted: the bot restarted while this ran; check the array.`,
      details,
    );
    for (const ref of rec.messages) effects.push({ kind: "update", ref, message: msg });
  }
  return effects;
}
