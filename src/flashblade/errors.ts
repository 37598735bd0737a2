/**
 * Coded errors of the array client. User-facing ones name the array and say what to do, ARRAY_CONTRACT included
 * (the array answered something our schemas do not accept: a bug on one side or the other).
 */
import { UserFacingError } from "../errors.js";
import type { ErrorEntry } from "./schemas.js";

export const ARRAY_ERROR_CODES = [
  "ARRAY_UNREACHABLE",
  "ARRAY_AUTH_FAILED",
  "ARRAY_REJECTED",
  "ARRAY_VERSION_TOO_OLD",
  "ARRAY_VERSION_UNSUPPORTED",
  "ARRAY_BUSY",
  "ARRAY_CONTRACT",
  "ARRAY_UNKNOWN",
  "ARRAY_OUTCOME_UNKNOWN",
  "ARRAY_ENDPOINT_UNKNOWN",
  "ARRAY_CLIENT_CLOSED",
  "FILTER_INVALID",
] as const;
export type ArrayErrorCode = (typeof ARRAY_ERROR_CODES)[number];

/** "14:02 UTC": unambiguous for a team spread over time zones. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  const hh = String(d.getUTCHours()).padStart(2, "0");
  const mm = String(d.getUTCMinutes()).padStart(2, "0");
  return `${hh}:${mm} UTC`;
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** A single call could not reach the array (not yet marked down). */
export function unreachable(array: string, reason: string, cause?: unknown): UserFacingError {
  return new UserFacingError(
    "ARRAY_UNREACHABLE",
    `array ${array} is unreachable (${reason}); try again in a minute, and see /array arrays for its health`,
    {
      cause,
      details: { array, reason },
    },
  );
}

/** The array is marked down; calls fail fast until the next probe. */
export function markedDown(array: string, since: number, reason: string, retryInMs: number): UserFacingError {
  return new UserFacingError(
    "ARRAY_UNREACHABLE",
    `array ${array} is unreachable since ${clockTime(since)} (${reason}); retrying in ${seconds(retryInMs)}s`,
    { details: { array, since, reason, retryInMs } },
  );
}

/** A write was sent but no answer came: it may or may not have been applied, so it is not retried. */
export function outcomeUnknown(array: string, reason: string, cause?: unknown): UserFacingError {
  return new UserFacingError(
    "ARRAY_OUTCOME_UNKNOWN",
    `array ${array} did not answer (${reason}); the change may or may not have been applied. ` +
      "Check the object's current state before trying again.",
    { cause, details: { array, reason } },
  );
}

export function authFailed(array: string, status: number, arrayMessage?: string): UserFacingError {
  const said = arrayMessage ? `: ${arrayMessage}` : "";
  return new UserFacingError(
    "ARRAY_AUTH_FAILED",
    `array ${array} refused the bot's API token (HTTP ${status}${said}). Check the token configured for it ` +
      "(api_token_env or api_token_file) and that its admin account still exists.",
    { details: { array, status } },
  );
}

/** The array's own error messages, with their context when the message does not already name it. */
export function describeErrors(entries: readonly ErrorEntry[]): string {
  return entries
    .map((e) => {
      const msg = e.message ?? "no message";
      const ctx = e.context === undefined ? "" : String(e.context);
      return ctx && !msg.includes(ctx) ? `${msg} (${ctx})` : msg;
    })
    .join("; ");
}

export function rejected(
  array: string,
  status: number,
  entries: readonly ErrorEntry[],
  fallback: string,
): UserFacingError {
  const text = entries.length > 0 ? describeErrors(entries) : fallback;
  return new UserFacingError("ARRAY_REJECTED", `${array} refused: ${text}`, {
    details: { array, status, errors: entries },
  });
}

export function versionTooOld(
  array: string,
  arrayVersion: string,
  needed: string,
  what: string,
): UserFacingError {
  return new UserFacingError(
    "ARRAY_VERSION_TOO_OLD",
    // The same words as the catalogue's version gate, so every command refuses an old array alike.
    `${what} needs REST ${needed}, ${array} runs ${arrayVersion}. Nothing was sent.`,
    { details: { array, arrayVersion, needed, what } },
  );
}

export function versionUnsupported(
  array: string,
  offered: readonly string[],
  pinned?: string,
): UserFacingError {
  const list = offered.length > 0 ? offered.join(", ") : "none";
  const message = pinned?.endsWith(".x")
    ? `array ${array} offers no REST ${pinned} version the bot speaks (it offers ${list}); change its api setting`
    : pinned
      ? `array ${array} does not offer the pinned API version ${pinned} (it offers ${list}); change its api setting`
      : `array ${array} offers no REST version the bot speaks (it offers ${list})`;
  return new UserFacingError("ARRAY_VERSION_UNSUPPORTED", message, { details: { array, offered, pinned } });
}

export function busy(array: string, queued: number): UserFacingError {
  return new UserFacingError(
    "ARRAY_BUSY",
    `array ${array} is busy (${queued} calls queued); try again shortly`,
    { details: { array, queued } },
  );
}

/**
 * The bot's own bound on sockets (array_pool.max_sockets) stayed full for as long as a call may wait for a place:
 * the array is not at fault (its health is not touched) and nothing was sent.
 */
export function socketsBusy(array: string, reason: string): UserFacingError {
  return new UserFacingError(
    "ARRAY_BUSY",
    `array ${array} was not asked: ${reason}; nothing was sent, try again shortly`,
    { details: { array } },
  );
}

/**
 * The array answered something our schemas do not accept. User-facing: the person should learn that the array's
 * answer, not their command, is the problem, and which array and field; a retry will not help.
 */
export function contract(array: string, path: string, field: string, problem: string): UserFacingError {
  return new UserFacingError(
    "ARRAY_CONTRACT",
    `array ${array} answered ${path} with an unexpected shape at ${field}: ${problem}. ` +
      "The bot cannot use this answer; if you asked for a change, check the object's state before retrying.",
    { details: { array, path, field, problem } },
  );
}

export function unknownArray(
  name: string,
  suggestions: readonly string[],
  known: readonly string[],
  fleet: readonly { name: string; via: string }[] = [],
): UserFacingError {
  // Fleet members are named with the configured array they are reached through.
  const members =
    fleet.length > 0
      ? ` Fleet members reached through them: ${fleet.map((m) => `${m.name} (through ${m.via})`).join(", ")}.`
      : "";
  const hint =
    suggestions.length > 0
      ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(" or ")}?${members}`
      : ` Known arrays: ${known.join(", ") || "none"}.${members}`;
  return new UserFacingError("ARRAY_UNKNOWN", `There is no array called "${name}".${hint}`, {
    suggestions,
    details: { name },
  });
}

export function filterInvalid(message: string): UserFacingError {
  return new UserFacingError("FILTER_INVALID", message);
}
