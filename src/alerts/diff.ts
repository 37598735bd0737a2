import { isClosed } from "./alert-model.js";
import type { AlertSnapshot, Severity } from "./types.js";

export type AlertChange =
  /** First seen while open (or closing): a new card, or a reopening of its family's card. */
  | { kind: "opened" }
  /** First seen already closed (opened and closed between two polls): recorded, never posted. */
  | { kind: "seen-closed" }
  /** The same alert went from closed back to open. */
  | { kind: "reopened" }
  | { kind: "severity"; from: Severity; to: Severity }
  | { kind: "flagged"; flagged: boolean }
  | { kind: "state"; from: string; to: string }
  /** Text or times changed: the card is refreshed without a thread line. */
  | { kind: "details" };

/** What changed between the last state we kept and what the array says now; [] when nothing did. */
export function diffAlert(prev: AlertSnapshot | undefined, cur: AlertSnapshot): AlertChange[] {
  if (!prev) return [{ kind: isClosed(cur) ? "seen-closed" : "opened" }];
  // An older copy than the one we hold (a page read before a change we already saw) is not news.
  if (cur.updated < prev.updated) return [];
  const out: AlertChange[] = [];
  if (isClosed(prev) && !isClosed(cur)) out.push({ kind: "reopened" });
  else if (prev.state !== cur.state) out.push({ kind: "state", from: prev.state, to: cur.state });
  if (prev.severity !== cur.severity) out.push({ kind: "severity", from: prev.severity, to: cur.severity });
  if (prev.flagged !== cur.flagged) out.push({ kind: "flagged", flagged: cur.flagged });
  if (
    out.length === 0 &&
    (prev.subject !== cur.subject ||
      prev.description !== cur.description ||
      prev.component !== cur.component ||
      prev.updated !== cur.updated)
  ) {
    out.push({ kind: "details" });
  }
  return out;
}
