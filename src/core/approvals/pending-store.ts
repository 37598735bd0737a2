/**
 * Pending requests: destructive actions waiting for a confirmation or approvals, and follow-up offers (Recover
 * after a destroy). Records are plain JSON so any store can hold them; the in-memory store here serves tests
 * and the console, and the SQLite store implements the same interface.
 *
 * `claim` is the single-use guard: an atomic compare-and-set from an expected status to "claimed". Whoever
 * gets the record back acts on it; a second click at the same moment gets undefined. `approve` is the same kind
 * of compare-and-set for approvals: "add this approver if absent and the request is still pending" (and claim it
 * when that was the last approval needed), so one person double-clicking is never two approvals.
 */

import type { Role } from "../access/roles.js";
import type { DestructiveClass, StateValue } from "../catalogue/define-command.js";
import type { MessageRef, SecretField } from "../context/pipeline-types.js";

export type PendingStatus =
  /** Waiting for a confirmation or approvals (or, for offers, a click). */
  | "pending"
  /** Taken by one click that is acting on it right now. */
  | "claimed"
  | "executed"
  | "failed"
  | "vetoed"
  | "cancelled"
  | "expired"
  /** The array changed between request and execution. */
  | "voided"
  /** The bot stopped while the request was being carried out; whether the array call happened is unknown. */
  | "interrupted";

export const OPEN_STATUSES: readonly PendingStatus[] = ["pending", "claimed"];

export interface PendingPerson {
  userId: string;
  displayName?: string;
}

/** What the request card shows, kept as markup that was escaped when it was built (plain JSON). */
export interface PendingDisplay {
  title: string;
  summary: string;
  facts: { label: string; markup: string }[];
  warnings: string[];
  /** The exact requests that will be sent, one per line. */
  requests: string[];
}

export interface PendingRecord {
  id: string;
  /** A gated request, or a follow-up offer (the Recover button). */
  kind: "request" | "offer" | "access";
  status: PendingStatus;
  /** "fs.eradicate". */
  commandId: string;
  /** The validated arguments, exactly as they will run. */
  args: Record<string, unknown>;
  /** The command as typed, for messages and audit. */
  commandText: string;
  requester: PendingPerson;
  /** The principal that proposed it for the requester (a workflow step): shown, never a decider. */
  via?: PendingPerson;
  /**
   * The person an assistant said it acts for: shown on the card, and a requester as far as approvals go (being
   * named gives no right: they cannot be the "someone else" who approves it).
   */
  onBehalfOf?: PendingPerson;
  /**
   * Approvals that follow the requester's own confirmation (a workflow step's change: the person Slack vouched for
   * confirms it first, then others approve). Cleared when the confirmation turns the request into an approval.
   */
  approvalsAfterConfirm?: { approvalsRequired: number; approverRole: Role };
  channelId: string;
  array: string;
  /**
   * The approval rule it falls under (issue 45): only its approvers' Approve counts (when it names them), and its
   * veto members' Deny vetoes it whatever their role. Kept on the record: a later configuration does not move it.
   */
  rule?: {
    label: string;
    approvals: number;
    approvers?: { users: string[]; groups: string[] };
    veto?: { users: string[]; groups: string[] };
  };
  /** The requester's reason (and ticket), shown on the card and in audit. */
  reason?: string;
  /** Run through a freeze by someone allowed to break glass, with their reason. */
  breakGlass?: { freeze: string; reason: string };
  /** The request id of the command that created this record (audit correlation). */
  requestId: string;
  destructiveClass?: DestructiveClass;
  policy: "confirm" | "approve" | "offer";
  /** Approvals needed besides the requester (0 for confirm and offers). */
  approvalsRequired: number;
  /** Minimum role of an approver, checked at click time. */
  approverRole: Role;
  approvals: (PendingPerson & { at: number })[];
  /** Hash of `state`; recomputed from the array before running. */
  fingerprint: string;
  state: Record<string, StateValue>;
  /**
   * The planned requests in canonical form (send-plan.ts), placeholders as placeholders: at execution the
   * recomputed plan must equal them, request by request.
   */
  planned?: string[];
  display: PendingDisplay;
  /** Text whoever confirms or approves must type (eradication). */
  typeToConfirm?: string;
  /** Secrets the requester types privately to confirm (names and labels only; the values are never stored). */
  secrets?: SecretField[];
  createdAt: number;
  expiresAt: number;
  updatedAt: number;
  /** Where the request is shown, so every copy can be updated. */
  messages: MessageRef[];
  /** The process instance (replica) that carried it out or is carrying it out; see src/core/approvals/recovery.ts. */
  executor?: string;
  /** Who ended it (veto, cancel) and why it ended (error code, void reason). */
  decidedBy?: PendingPerson;
  outcome?: string;
  /** What a carried-out request answered, as plain text (redacted), for faces that ask later (MCP request_status). */
  result?: string;
}

export type PendingPatch = Partial<Omit<PendingRecord, "id" | "kind" | "createdAt">>;

export type PendingApproval = PendingPerson & { at: number };

/** What one approval click did to the record, decided atomically with the write. */
export type ApprovalOutcome =
  /** The last approval needed: recorded and the record claimed; the caller carries it out. */
  | { kind: "claimed"; record: PendingRecord }
  /** Recorded; more approvals are still needed. */
  | { kind: "recorded"; record: PendingRecord }
  /** This person had already approved; nothing changed. */
  | { kind: "duplicate"; record: PendingRecord }
  /** Past its expiry: moved to "expired" now. */
  | { kind: "expired"; record: PendingRecord }
  /** No longer pending (decided, claimed by another click, or gone); nothing changed. */
  | { kind: "closed"; record: PendingRecord | undefined };

/**
 * The approval compare-and-set as a pure step: given the current record, the record to store and what happened.
 * Both store implementations run it inside their atomic update, so the check and the write cannot be split.
 */
export function applyApproval(
  cur: PendingRecord | undefined,
  approval: PendingApproval,
): { next: PendingRecord | undefined; outcome: ApprovalOutcome } {
  if (cur?.status !== "pending") return { next: cur, outcome: { kind: "closed", record: cur } };
  if (approval.at >= cur.expiresAt) {
    const next: PendingRecord = { ...cur, status: "expired", updatedAt: approval.at };
    return { next, outcome: { kind: "expired", record: next } };
  }
  if (cur.approvals.some((a) => a.userId === approval.userId))
    return { next: cur, outcome: { kind: "duplicate", record: cur } };
  const approvals = [...cur.approvals, approval];
  const last = approvals.length >= cur.approvalsRequired;
  const next: PendingRecord = {
    ...cur,
    approvals,
    status: last ? "claimed" : "pending",
    updatedAt: approval.at,
  };
  return { next, outcome: { kind: last ? "claimed" : "recorded", record: next } };
}

export interface PendingStore {
  /** Stores a new record; an existing id is an error. */
  create(record: PendingRecord): Promise<void>;
  get(id: string): Promise<PendingRecord | undefined>;
  /** Atomically moves the record from `expectedStatus` to "claimed"; undefined when its status differs. */
  claim(id: string, expectedStatus: PendingStatus): Promise<PendingRecord | undefined>;
  /** Adds an approval if the person has not approved yet and the record is pending, in one atomic step. */
  approve(id: string, approval: PendingApproval): Promise<ApprovalOutcome>;
  /** Applies a patch and returns the new record; undefined when absent. */
  update(id: string, patch: PendingPatch): Promise<PendingRecord | undefined>;
  /** Records still pending or claimed. */
  listOpen(): Promise<PendingRecord[]>;
  /** Marks pending records whose expiry is at or before `now` as expired and returns them. */
  expireBefore(now: number): Promise<PendingRecord[]>;
  /**
   * Moves every record left "claimed" to "interrupted" and returns them, except those `keep` says are still
   * being carried out (their executor's lease is live). Without `keep`, only safe at start-up by the one process
   * that holds the data file: then no click can still be acting on them.
   */
  interruptClaimed(now: number, keep?: (rec: PendingRecord) => Promise<boolean>): Promise<PendingRecord[]>;
}

/** Finished records stay readable this long after their expiry (late clicks get a clear answer), then go. */
export const KEEP_FINISHED_MS = 7 * 24 * 3600_000;
