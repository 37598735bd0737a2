/**
 * Error taxonomy. Every error we throw carries a stable `code`; code branches on codes, never on message text.
 * `UserFacingError` messages are written for the person who typed the command and are shown verbatim;
 * anything else reaches the user as a generic line with the request id, and its details go to the log.
 */
export class BotError extends Error {
  readonly code: string;
  readonly suggestions: readonly string[];
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: string,
    message: string,
    opts: { cause?: unknown; suggestions?: readonly string[]; details?: Record<string, unknown> } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = code;
    this.suggestions = opts.suggestions ?? [];
    this.details = opts.details ?? {};
  }
}

/** Shown to the user as written. */
export class UserFacingError extends BotError {
  readonly userFacing = true as const;
}

/** Logged in full; the user sees a generic message with the request id. */
export class InternalError extends BotError {
  readonly userFacing = false as const;
}

export function isUserFacing(err: unknown): err is UserFacingError {
  return err instanceof UserFacingError;
}

export function errorCode(err: unknown): string {
  return err instanceof BotError ? err.code : "INTERNAL";
}

/** The line a person sees for any error. Internal details never leak; the request id lets support find the log. */
export function toUserMessage(err: unknown, requestId: string): string {
  if (isUserFacing(err)) return err.message;
  return `Something went wrong on our side (request ${requestId}). The details are in the bot's log.`;
}
