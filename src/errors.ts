/**
 * Error taxonomy. Every error we throw carries a stable `code`; code branches on codes, never on message text.
 * `UserFacingError` messages are written for the person who typed the command and are shown verbatim;
 * anything else reaches the user as a generic line with the request id, and its details go to the log.
 */
/**
 * Every code an error may carry: one list, so a typo is a type error and a reader sees them all. The audit, the
 * metrics and tests branch on these, never on message text.
 */
export const ERROR_CODES = [
  "ACCESS_NOT_FOUND",
  "ACCESS_NO_RULE",
  "ACCESS_TOO_LONG",
  "ACTION_DENIED_BY_POLICY",
  "ACTOR_UNKNOWN",
  "ALERTS_LOCK_BUSY",
  "ALERTS_NOT_RUNNING",
  "ALERT_NOT_FOUND",
  "ALREADY_CONNECTED",
  "ALREADY_DESTROYED",
  "ALREADY_EXISTS",
  "ALREADY_MEMBER",
  "ALREADY_PAUSED",
  "AMBIGUOUS",
  "API_BAD_JSON",
  "API_BODY_NOT_ALLOWED",
  "API_DUPLICATE_PARAMETER",
  "API_METHOD_NOT_ALLOWED",
  "API_PARAMETER_NOT_IN_VERSION",
  "API_SECRET_IN_BODY",
  "API_UNKNOWN_PARAMETER",
  "API_UNKNOWN_PATH",
  "APPROVAL_BY_REQUESTER",
  "APPROVAL_DUPLICATE",
  "APPROVAL_LAPSED",
  "APPROVER_NOT_IN_RULE",
  "ARRAY_AUTH_FAILED",
  "ARRAY_BUSY",
  "ARRAY_CLIENT_CLOSED",
  "ARRAY_CONTRACT",
  "ARRAY_DEADLINE",
  "ARRAY_ENDPOINT_UNKNOWN",
  "ARRAY_NONE_SELECTED",
  "ARRAY_NOT_APPLICABLE",
  "ARRAY_OUTCOME_UNKNOWN",
  "ARRAY_REJECTED",
  "ARRAY_REQUIRED",
  "ARRAY_UNKNOWN",
  "ARRAY_UNREACHABLE",
  "ARRAY_VERSION_TOO_OLD",
  "ARRAY_VERSION_UNSUPPORTED",
  "ASSISTANT_CANNOT_DECIDE",
  "ASSISTANT_NO_SECRETS",
  "AUDIT_CHAIN_MISMATCH",
  "BREAK_GLASS_FORBIDDEN",
  "BREAK_GLASS_NOT_NEEDED",
  "BUCKET_DESTROYED",
  "CATALOGUE_INVALID",
  "CHANGE_FROZEN",
  "CHANNEL_FORBIDDEN",
  "CHANNEL_NOT_BOUND",
  "CHANNEL_PUBLIC_FORBIDDEN",
  "CHART_INVALID",
  "CONFIG_DATA_DIR_EMPTY",
  "CONFIG_INVALID",
  "CONFIG_PATH_MISSING",
  "CONFIG_SLACK_INVALID",
  "CONFIG_SLACK_SECRET_IN_FILE",
  "CONFIG_UNREADABLE",
  "DATA_FILE_IN_USE",
  "DESTROYED",
  "DRY_RUN_NOT_APPLICABLE",
  "FILTER_INVALID",
  "FORBIDDEN",
  "FS_DESTROYED",
  "FS_NO_REPLICA_LINK",
  "GATE_CLASS_UNDECLARED",
  "HISTORY_NOUN_UNKNOWN",
  "HISTORY_UNAVAILABLE",
  "INTERNAL",
  "INVALID_ARGUMENTS",
  "IN_USE",
  "LIST_BAD_LIMIT",
  "LIST_BAD_WHERE",
  "LIST_NOT_A_LIST",
  "LIST_NO_TABLE",
  "LIST_UNKNOWN_COLUMN",
  "MISSING_VERB",
  "NOTHING_PLANNED",
  "NOTHING_TO_CHANGE",
  "NOT_AN_OFFER",
  "NOT_A_TASK",
  "NOT_DESTROYED",
  "NOT_FOUND",
  "NOT_MEMBER",
  "NOT_PAUSED",
  "NOT_REQUESTER",
  "NOT_SUPPORTED",
  "NO_ANSWER",
  "NO_ARRAY_CONTEXT",
  "NO_CHANGE",
  "NO_IMPACT",
  "NO_KEY",
  "NO_RUN",
  "NO_SECRET",
  "OFFER_EXPIRED",
  "ONE_ARRAY_ONLY",
  "PARSE_BAD_VALUE",
  "PARSE_DUPLICATE_OPTION",
  "PARSE_EXTRA_WORDS",
  "PARSE_MISSING_VALUE",
  "PARSE_TOO_LONG",
  "PARSE_UNCLOSED_QUOTE",
  "PARSE_UNKNOWN_OPTION",
  "PENDING_BUSY",
  "PENDING_CLOSED",
  "PENDING_COMMAND_UNKNOWN",
  "PENDING_EXISTS",
  "PENDING_EXPIRED",
  "PENDING_UNKNOWN",
  "PLACEHOLDER_MISMATCH",
  "PLACEHOLDER_UNFILLED",
  "PLAN_CHANGED",
  "PRECONDITION_CHANGED",
  "PUBLIC_NOT_APPLICABLE",
  "QUOTA_NOT_FOUND",
  "RATE_LIMITED",
  "REGISTRY_INVALID",
  "REPLAY_BAD_DATA",
  "REQUEST_BUDGET",
  "REQUEST_NOT_IN_POLICY",
  "RETAINED",
  "RULE_EXISTS",
  "RULE_NEEDS_REASON",
  "RULE_NEEDS_TICKET",
  "RULE_NOT_FOUND",
  "SECRET_MALFORMED",
  "SECRET_MISSING",
  "SECRET_NEEDS_REQUESTER",
  "SECRET_WITH_TYPED_NAME",
  "SIM_BAD_CONTROL_INPUT",
  "SIM_BAD_OPTIONS",
  "SLACK_ACTION_ID_INVALID",
  "SLACK_BUTTON_VALUE_TOO_LONG",
  "SLACK_FILE_UPLOAD_FAILED",
  "SLACK_START_FAILED",
  "STATE_CHANGED",
  "STORE_BAD_NS",
  "STORE_BAD_VALUE",
  "STORE_CLOSED",
  "STORE_CONTENDED",
  "STORE_DATA_DIR_UNUSABLE",
  "STORE_FENCED",
  "STORE_FULL",
  "STORE_IO",
  "STORE_OPEN_FAILED",
  "STORE_SCHEMA_TOO_NEW",
  "STORE_UNAVAILABLE",
  "TOO_MANY_KEYS",
  "TYPED_NAME_MISMATCH",
  "UNKNOWN_ACTION",
  "UNKNOWN_HELP_TOPIC",
  "UNKNOWN_RESOURCE",
  "UNKNOWN_TOOL",
  "UNKNOWN_VERB",
  "WORKFLOW_NEEDS_PERSON",
  "WRONG_BUTTON",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Codes that mean "you may not" (a role, a channel, a policy): the audit records the request as denied. */
const DENIED: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "ACTION_DENIED_BY_POLICY",
  "ASSISTANT_CANNOT_DECIDE",
  "FORBIDDEN",
  "CHANNEL_FORBIDDEN",
  "CHANNEL_NOT_BOUND",
  "CHANNEL_PUBLIC_FORBIDDEN",
  "WORKFLOW_NEEDS_PERSON",
  "CHANGE_FROZEN",
  "BREAK_GLASS_FORBIDDEN",
  "APPROVER_NOT_IN_RULE",
  "ACCESS_NO_RULE",
]);

export class BotError extends Error {
  readonly code: ErrorCode;
  /** A refusal by policy or role (not a failure): audited as `denied`. */
  readonly denied: boolean;
  readonly suggestions: readonly string[];
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { cause?: unknown; suggestions?: readonly string[]; details?: Record<string, unknown> } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.code = code;
    this.denied = DENIED.has(code);
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

export function errorCode(err: unknown): ErrorCode {
  return err instanceof BotError ? err.code : "INTERNAL";
}

/** The line a person sees for any error. Internal details never leak; the request id lets support find the log. */
export function toUserMessage(err: unknown, requestId: string): string {
  if (isUserFacing(err)) return err.message;
  return `Something went wrong on our side (request ${requestId}). The details are in the bot's log.`;
}
