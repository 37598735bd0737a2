/**
 * Start-up recovery and execution ownership. A request left "claimed" means some process was carrying it out.
 * While it runs, its executor holds a lease on it in the store (src/store/execution-lease.ts), so a replica that
 * starts meanwhile (a rolling update) leaves it alone; only a request whose executor's lease has expired, or any
 * claimed request when the store is this process's alone, ends as "interrupted". Its cards then say what the array
 * shows now against each planned request (read back: done, not done, partly done), and the audit trail gets a
 * closing record.
 */
import { isUserFacing, toUserMessage } from "../../errors.js";
import type { Logger } from "../../logger.js";
import { auditRecord, pendingFacts } from "../audit/audit.js";
import type { Effect } from "../context/pipeline-types.js";
import type { Runtime } from "../pipeline/runtime.js";
import { type Rich, rich } from "../presentation/message.js";
import { overall, readBack } from "../requests/read-back.js";
import { closedCard } from "./gate-messages.js";
import type { PendingRecord } from "./pending-store.js";

/**
 * Runs `work` for a claimed record under its execution lease (when the pipeline has leases), recording this
 * process as the record's executor; the lease is renewed while the work runs and given up when it ends.
 */
export async function withExecutionLease<T>(
  rt: Runtime,
  rec: PendingRecord,
  work: () => Promise<T>,
): Promise<T> {
  const leases = rt.deps.executions;
  if (!leases) return work();
  const hold = await leases.hold(rec.id, {
    command: rec.commandText,
    array: rec.array,
    requestId: rec.requestId,
    requester: rec.requester,
    approvedBy: rec.approvals.map((a) => a.userId),
    requests: rec.display.requests,
  });
  try {
    await rt.deps.store.update(rec.id, { executor: leases.owner });
    return await work();
  } finally {
    await hold.release().catch((err: unknown) => {
      rt.log.warn({ err, pendingId: rec.id }, "could not give up an execution lease; it lapses on its own");
    });
  }
}

/** Whether a claimed record is still being carried out by a live executor (so it must be left alone). */
async function stillRunning(rt: Runtime, rec: PendingRecord, now: number): Promise<boolean> {
  const leases = rt.deps.executions;
  if (!leases || leases.exclusive) return false;
  const state = await leases.state(rec.id);
  if (state.kind === "live") return true;
  if (state.kind === "expired") return false;
  // No lease yet: claimed a moment ago by a replica that is about to take it. Past one lease time, nobody will.
  return now - rec.updatedAt < leases.ttlMs;
}

/** What the array shows now against each planned request. */
async function currentState(
  rt: Runtime,
  rec: PendingRecord,
  log: Logger,
): Promise<{ headline: Rich; details: string[] }> {
  const fallback = rich`Interrupted: the bot stopped while this ran. Check ${rec.array} before running it again.`;
  try {
    const results = await readBack(rt.deps.pool.get(rec.array), rec.display.requests, rec.requestId);
    if (results.length === 0) return { headline: fallback, details: [] };
    const v = overall(results);
    const headline =
      v === "done"
        ? rich`Interrupted, but ${rec.array} shows the change done: every planned request reads back as planned.`
        : v === "not done"
          ? rich`Interrupted before the change reached ${rec.array}: it shows none of the planned changes; run it again if still wanted.`
          : v === "partly done"
            ? rich`Interrupted part way: ${rec.array} shows some of the planned changes and not others. Check before running it again.`
            : rich`Interrupted: the bot stopped while this ran, and what ${rec.array} shows cannot be compared with the plan. Check it before running it again.`;
    return { headline, details: results.map((r) => `Now on ${rec.array}: ${r.line}`) };
  } catch (err) {
    if (!isUserFacing(err))
      log.warn({ err, pendingId: rec.id }, "could not read the array for an interrupted request");
    return {
      headline: fallback,
      details: [`Could not read ${rec.array} now: ${toUserMessage(err, rec.requestId)}`],
    };
  }
}

/** Ends every request whose executor is gone; returns the card updates to make. */
export async function recoverInterrupted(rt: Runtime): Promise<Effect[]> {
  const now = rt.deps.now();
  const interrupted = await rt.deps.store.interruptClaimed(now, (rec) => stillRunning(rt, rec, now));
  const effects: Effect[] = [];
  for (const rec of interrupted) {
    const log = rt.log.child({ pendingId: rec.id, command: rec.commandId });
    log.warn(
      { executor: rec.executor },
      "request was being carried out when its executor stopped; marked interrupted",
    );
    await rt.auditor.record(
      auditRecord({
        ...pendingFacts(rec),
        id: `${rec.id}.interrupted`,
        started: now,
        decision: "interrupted",
        ...(rec.approvals.length > 0 ? { approvedBy: rec.approvals.map((a) => a.userId) } : {}),
        outcome: "error",
        errorCode: "INTERRUPTED",
      }),
    );
    if (rec.kind !== "request" || rec.messages.length === 0) continue;
    const { headline, details } = await currentState(rt, rec, log);
    const msg = closedCard(rec, rec.display, headline, details);
    for (const ref of rec.messages) effects.push({ kind: "update", ref, message: msg });
  }
  return effects;
}
