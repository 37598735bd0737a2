/** What the destroy commands share: the Recover button and the note on when the array eradicates. */
import type { FollowUp } from "../../src/core/define-command.js";
import { formatDuration } from "../../src/core/units.js";
import { UserFacingError } from "../../src/errors.js";

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

interface MaybeDestroyed {
  destroyed?: boolean | null | undefined;
}

/** Destroying what is already destroyed is refused, naming the two ways on (`group` is fs or bucket). */
export function refuseAlreadyDestroyed(obj: MaybeDestroyed, name: string, group: string): void {
  if (obj.destroyed) {
    throw new UserFacingError(
      "ALREADY_DESTROYED",
      `${name} is already destroyed. Recover it with /array ${group} recover ${name}, or eradicate it with /array ${group} eradicate ${name}.`,
    );
  }
}

/**
 * Only a destroyed object can be eradicated. On the recheck after an approval the object was recovered in
 * the meantime, which is a different story from asking too early (`notYet`).
 */
export function requireDestroyedToEradicate(
  obj: MaybeDestroyed,
  name: string,
  recheck: boolean | undefined,
  notYet: string,
): void {
  if (!obj.destroyed) {
    throw new UserFacingError(
      "NOT_DESTROYED",
      recheck
        ? `${name} is not destroyed any more: it was recovered since this was requested, so it was not eradicated.`
        : notYet,
    );
  }
}

/** Recovering what is not destroyed is refused. */
export function refuseNotDestroyed(obj: MaybeDestroyed, name: string): void {
  if (!obj.destroyed)
    throw new UserFacingError("NOT_DESTROYED", `${name} is not destroyed; there is nothing to recover.`);
}
