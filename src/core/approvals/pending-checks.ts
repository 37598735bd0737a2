/** Checks every click on a pending request makes before it may act. */
import { UserFacingError } from "../../errors.js";
import type { ClickInput } from "../context/pipeline-types.js";
import { formatTimestamp } from "../presentation/format-time.js";
import type { PendingPerson, PendingRecord } from "./pending-store.js";

const by = (p: PendingPerson | undefined): string => (p ? ` by @${p.displayName ?? p.userId}` : "");

/** What happened to a request that is no longer pending, in words: "already carried out by @alice at …". */
export function closedState(rec: PendingRecord, timeZone = "UTC"): string {
  const at = ` at ${formatTimestamp(rec.updatedAt, timeZone)}`;
  switch (rec.status) {
    case "pending":
      return "still open";
    case "claimed":
      return "being carried out right now";
    case "executed":
      return `already carried out${by(rec.decidedBy)}${at}`;
    case "failed":
      // The store fails a request typed with a credential that only the process it was typed to kept in memory.
      return rec.outcome === "SECRET_NOT_KEPT"
        ? "not run: it was typed with a credential (a password in a URL) that only the bot instance it was typed to kept, in memory, and that instance has restarted or another one answered. Nothing was sent; run the command again"
        : `already failed${at}`;
    case "vetoed":
      return `already denied${by(rec.decidedBy)}${at}`;
    case "cancelled":
      return `already cancelled${by(rec.decidedBy)}${at}`;
    case "expired":
      return "already expired";
    case "voided":
      return `void since${at.slice(3)}: the array changed after it was requested`;
    case "interrupted":
      return "interrupted: the bot restarted while it ran; check the array";
  }
}

/** Only a pending record can still be acted on; anything else gets a clear "too late" and changes nothing. */
export function assertOpen(rec: PendingRecord, timeZone = "UTC"): void {
  if (rec.status === "pending") return;
  throw new UserFacingError(
    "PENDING_CLOSED",
    `This request is ${closedState(rec, timeZone)}; nothing more was done.`,
  );
}

/** Checks the typed name; undefined text means the transport still has to ask for it. */
export function typedOk(rec: PendingRecord, input: ClickInput): boolean {
  if (rec.typeToConfirm === undefined) return true;
  if (input.typedText === undefined) return false;
  if (input.typedText.trim() !== rec.typeToConfirm) {
    throw new UserFacingError(
      "TYPED_NAME_MISMATCH",
      `You typed "${input.typedText.trim()}", which is not "${rec.typeToConfirm}". Nothing was done; click the button again to retry.`,
    );
  }
  return true;
}
