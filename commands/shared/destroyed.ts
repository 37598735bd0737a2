/** What the destroy commands share: the Recover button and the note on when the array eradicates. */
import type { FollowUp } from "../../src/core/define-command.js";
import { formatDuration } from "../../src/core/units.js";

/** How long the Recover button is offered when the array does not say how long the object is kept. */
const RECOVER_OFFER_MS = 24 * 3_600_000;

interface Destroyed {
  name: string;
  time_remaining?: number | undefined;
}

/** A Recover button that runs `commandId` (fs.recover, snapshot.recover) for as long as recovery is possible. */
export function recoverOffer(commandId: string, obj: Destroyed): FollowUp {
  return {
    label: `Recover ${obj.name}`,
    commandId,
    args: { name: obj.name },
    validForMs: obj.time_remaining ?? RECOVER_OFFER_MS,
  };
}

/** " It will be eradicated in 23 h." when the array says, else nothing. */
export function eradicationNote(obj: Destroyed): string {
  return obj.time_remaining === undefined
    ? ""
    : ` It will be eradicated in ${formatDuration(obj.time_remaining)}.`;
}
