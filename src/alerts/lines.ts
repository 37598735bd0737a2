/**
 * The short lines added to an alert message's thread. Plain text (the chat port escapes it) and never a
 * mention: a thread line informs whoever follows the thread, it does not page anyone.
 */
import { alertTitle } from "./alert-model.js";
import type { AlertChange } from "./diff.js";
import { formatSpan, formatWindow, ordinal } from "./format.js";
import type { AlertSnapshot } from "./types.js";

/** The line for one change, or undefined when the change is not worth a line. */
export function changeLine(change: AlertChange, a: AlertSnapshot, prefix = ""): string | undefined {
  switch (change.kind) {
    case "severity":
      return `${prefix}Severity changed from ${change.from} to ${change.to}.`;
    case "flagged":
      return `${prefix}${change.flagged ? "Flagged" : "Unflagged"} on the array.`;
    case "reopened":
      return `${prefix}Reopened.`;
    case "state":
      if (change.to === "closed") return `${prefix}Closed after ${formatSpan(a.updated - a.created)}.`;
      if (change.to === "closing") return `${prefix}Closing.`;
      if (change.to === "open") return `${prefix}Open again (was ${change.from}).`;
      return `${prefix}State is now ${change.to}.`;
    default:
      return undefined;
  }
}

/** Prefix that tells summary-thread readers which alert a line is about. */
export function memberPrefix(a: AlertSnapshot): string {
  return `Alert ${a.index} (${alertTitle(a)}): `;
}

export function reopenLine(
  a: AlertSnapshot,
  reopenings: number,
  windowMs: number,
  flapping: boolean,
): string {
  const base = `Reopened as alert ${a.index} (${a.severity}), the ${ordinal(reopenings)} reopening in the last ${formatWindow(windowMs)}.`;
  return flapping ? `${base} Flapping: later reopenings only update this message.` : base;
}

export const actionLines = {
  flagged: (by: string, flagged: boolean) => `${flagged ? "Flagged" : "Unflagged"} by ${by}.`,
  snoozed: (by: string, untilText: string) =>
    `Snoozed by ${by} until ${untilText}: reopenings are recorded here without new messages.`,
  unreachable: (reason: string) => `Still failing: ${reason}`,
  reachable: (downFor: number) => `Reachable again after ${formatSpan(downFor)}.`,
};
