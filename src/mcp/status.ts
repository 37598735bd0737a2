/**
 * `request_status`: where a change an assistant proposed stands. A client sees only its own principal's requests;
 * any other id is unknown to it, whoever made it.
 */
import type { PendingRecord, PendingStore } from "../core/approvals/pending-store.js";
import { type ToolResult, toolResult } from "./output.js";

export type RequestState = "pending" | "approved" | "executed" | "denied" | "expired" | "failed";

export function stateOf(rec: PendingRecord, now: number): RequestState {
  switch (rec.status) {
    case "pending":
      return now >= rec.expiresAt ? "expired" : "pending";
    case "claimed":
      return "approved";
    case "executed":
      return "executed";
    case "vetoed":
    case "cancelled":
      return "denied";
    case "expired":
      return "expired";
    default:
      // failed, voided (the array changed), interrupted (the bot stopped while sending).
      return "failed";
  }
}

export async function requestStatus(
  pending: PendingStore,
  principal: string,
  id: string,
  now: () => number = Date.now,
): Promise<ToolResult> {
  const rec = id ? await pending.get(id) : undefined;
  if (rec?.kind !== "request" || rec.requester.userId !== principal)
    return toolResult({ text: `No request ${id} of yours is known.`, blocks: [], error: "PENDING_UNKNOWN" });
  const state = stateOf(rec, now());
  const lines = [`${rec.display.title}: ${state}.`];
  if (rec.approvals.length > 0)
    lines.push(`Approved by ${rec.approvals.map((a) => a.displayName ?? a.userId).join(", ")}.`);
  if (rec.decidedBy) lines.push(`Decided by ${rec.decidedBy.displayName ?? rec.decidedBy.userId}.`);
  if (rec.result) lines.push(rec.result);
  if (state === "failed" && rec.outcome) lines.push(`Reason: ${rec.outcome} (${rec.status}).`);
  return toolResult(
    { text: lines.join("\n"), blocks: [] },
    {
      id: rec.id,
      state,
      status: rec.status,
      approvals: rec.approvals.map((a) => a.displayName ?? a.userId),
      ...(rec.decidedBy ? { decidedBy: rec.decidedBy.displayName ?? rec.decidedBy.userId } : {}),
      ...(rec.result ? { result: rec.result } : {}),
      ...(rec.outcome ? { outcome: rec.outcome } : {}),
    },
  );
}
