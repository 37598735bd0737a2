/** Checks every click on a pending request makes before it may act. */
import { UserFacingError } from "../errors.js";
import type { PendingRecord } from "./pending-store.js";
import type { ClickInput } from "./pipeline-types.js";

/** Only a pending record can still be acted on; anything else gets a clear "too late". */
export function assertOpen(rec: PendingRecord): void {
  if (rec.status === "pending") return;
  const state = rec.status === "claimed" ? "being carried out right now" : `already ${rec.status}`;
  throw new UserFacingError("PENDING_CLOSED", `This request is ${state}; nothing more was done.`);
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
