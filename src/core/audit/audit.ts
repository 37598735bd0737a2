/**
 * One audit record per request, from the first word typed to the final outcome: who, where, which arrays,
 * what, the decision (allowed, denied, pending, approved by whom, vetoed, expired, voided) and the outcome.
 * Records go to the log (child logger `component: "audit"`) and to an injected sink (the Slack layer may post
 * them to the audit channel; tests collect them). With a chain (src/core/audit/audit-chain.ts) each record first takes
 * its place in the store's hash chain, so the log line, the sink and the export all carry seq, prev_hash, hash.
 */

import { BotError } from "../../errors.js";
import type { Logger } from "../../logger.js";
import { redact } from "../../redact.js";
import { currentTrace } from "../../trace.js";
import type { AccessResolver } from "../access/authz.js";
import { type Role, roleAtLeast } from "../access/roles.js";
import type { PendingRecord } from "../approvals/pending-store.js";
import { redactTypedArgs } from "../presentation/redact.js";
import type { AuditChain } from "./audit-chain.js";

export type AuditDecision =
  | "allowed"
  | "denied"
  | "invalid"
  | "dry_run"
  | "pending"
  | "confirmed"
  | "approved"
  | "approval_recorded"
  | "vetoed"
  | "cancelled"
  | "expired"
  | "voided"
  /** Written just before a gated change is sent to the array; its final record follows. */
  | "executing"
  /** A change the bot was carrying out when it stopped (found at the next start-up). */
  | "interrupted";

export interface AuditRecord {
  /** The request id (for clicks: the click's own id; `pendingId` links it to the request). */
  id: string;
  /** ISO 8601 time the request arrived. */
  at: string;
  userId: string;
  displayName?: string;
  channelId: string;
  arrays: string[];
  /** "fs.resize", or "unknown" when the text did not parse. */
  command: string;
  /** Validated arguments, or the raw text when validation failed. */
  args: Record<string, unknown>;
  /**
   * The role the caller's request was decided with ("none": no role). Where several arrays were asked, the
   * lowest of them. Absent when no person's role was looked up (the expiry sweep).
   */
  role?: Role | "none";
  text?: string;
  decision: AuditDecision;
  /** Everyone who approved or confirmed, for decisions that carry out a gated request. */
  approvedBy?: string[];
  pendingId?: string;
  /** Who asked for a gated request, on the records of the clicks that decide it (history names them). */
  requester?: { userId: string; displayName?: string };
  /**
   * A change's planned requests as lines (send-plan.ts canonical form, placeholders kept, redacted): what the
   * card showed and the pipeline sends.
   */
  sent?: string[];
  /** Change control (issue 45): the approval rule the change fell under, its reason, a freeze it broke through. */
  rule?: string;
  reason?: string;
  breakGlass?: { freeze: string; reason: string };
  /** The time-bound access grant the caller's role came from, when it did. */
  grant?: string;
  /** The trace id of the request it belongs to (its trigger's id; a click's is its request's): src/trace.ts. */
  trace?: string;
  outcome: "ok" | "error";
  errorCode?: string;
  durationMs: number;
  /** The record's place in the store's audit chain (absent without a chain: hand-built pipelines in tests). */
  seq?: number;
  /** The hash of record seq-1 (64 zeros for the first). */
  prev_hash?: string;
  /** SHA-256 hex of the record's canonical JSON without `hash` (canonicalJson in audit-chain.ts). */
  hash?: string;
}

export interface AuditSink {
  write(record: AuditRecord): void | Promise<void>;
}

/** A sink that keeps records in memory (tests, the console). */
export function memoryAuditSink(): AuditSink & { records: AuditRecord[] } {
  const records: AuditRecord[] = [];
  return { records, write: (r) => void records.push(r) };
}

export interface Auditor {
  record(rec: AuditRecord): Promise<void>;
}

/**
 * Writes each record to the log and to the sink; a failing sink is logged, never fatal to the request. Every
 * record passes the one redaction first (its typed text is redacted where it is made, see redactCommandLine; its
 * typed arguments lose what opens like JSON but does not parse, see redactTypedArgs), so what is hashed into the
 * chain is what was redacted: no secret is ever part of a hash anyone can check.
 */
export function createAuditor(logger: Logger, sink: AuditSink, chain?: AuditChain): Auditor {
  const log = logger.child({ component: "audit" });
  return {
    async record(raw) {
      // The request's trace id (src/trace.ts), so a record is found beside the log lines of the same request.
      const trace = raw.trace ?? currentTrace();
      let rec: AuditRecord = redact({
        ...raw,
        args: redactTypedArgs(raw.args),
        ...(trace === undefined ? {} : { trace }),
      });
      if (chain) {
        try {
          rec = await chain.append(rec);
        } catch (err) {
          // The store is down: the request goes on and the record still reaches the log and the sink, without a
          // place in the chain (and so not exported); the error says which record the chain lacks.
          log.error({ err, auditId: rec.id }, "audit record could not be added to the audit chain");
        }
      }
      log.info({ audit: rec }, `audit ${rec.command} ${rec.decision} ${rec.outcome}`);
      try {
        await sink.write(rec);
      } catch (err) {
        log.error({ err, auditId: rec.id }, "audit sink failed");
      }
    },
  };
}

/**
 * What one record says, as its maker knows it; `auditRecord` turns it into the record, the one place a record is
 * made (an architecture test holds every other module to it). Optional facts left undefined (or empty, for the
 * names and codes) are left out of the record, so every path writes the same fields for the same facts.
 */
export interface AuditFacts {
  id: string;
  /** Who acted, and where. */
  by: { userId: string; displayName?: string | undefined; channelId: string };
  /** When the request arrived (ms since the epoch). */
  started: number;
  /** When its record is written; a record of a moment (executing, expired, interrupted) leaves it out. */
  ended?: number;
  arrays: string[];
  command: string;
  args: Record<string, unknown>;
  role?: Role | "none" | undefined;
  text?: string;
  decision: AuditDecision;
  approvedBy?: string[] | undefined;
  pendingId?: string | undefined;
  requester?: AuditRecord["requester"];
  sent?: string[] | undefined;
  rule?: string;
  reason?: string;
  breakGlass?: AuditRecord["breakGlass"];
  grant?: string | undefined;
  outcome: "ok" | "error";
  errorCode?: string | undefined;
}

export function auditRecord(f: AuditFacts): AuditRecord {
  return {
    id: f.id,
    at: new Date(f.started).toISOString(),
    userId: f.by.userId,
    ...(f.by.displayName ? { displayName: f.by.displayName } : {}),
    channelId: f.by.channelId,
    arrays: f.arrays,
    command: f.command,
    // Redacted with the whole record by the auditor (one redaction for every output).
    args: f.args,
    ...(f.role === undefined ? {} : { role: f.role }),
    ...(f.text === undefined ? {} : { text: f.text }),
    decision: f.decision,
    ...(f.approvedBy ? { approvedBy: f.approvedBy } : {}),
    ...(f.pendingId ? { pendingId: f.pendingId } : {}),
    ...(f.requester ? { requester: f.requester } : {}),
    ...(f.sent ? { sent: f.sent } : {}),
    ...(f.rule ? { rule: f.rule } : {}),
    ...(f.reason ? { reason: f.reason } : {}),
    ...(f.breakGlass ? { breakGlass: f.breakGlass } : {}),
    ...(f.grant ? { grant: f.grant } : {}),
    outcome: f.outcome,
    ...(f.errorCode ? { errorCode: f.errorCode } : {}),
    durationMs: f.ended === undefined ? 0 : f.ended - f.started,
  };
}

/** The facts a gated request's own records share: what it changes, where, and who asked (the one acting). */
export function pendingFacts(
  rec: PendingRecord,
): Pick<AuditFacts, "by" | "arrays" | "command" | "args" | "pendingId"> {
  return {
    by: { ...rec.requester, channelId: rec.channelId },
    arrays: [rec.array],
    command: rec.commandId,
    args: rec.args,
    pendingId: rec.id,
  };
}

/**
 * A failure with the decision its request had reached: a step run by `decidedAs` carries its decision out with
 * the error, so the record's decision is computed once, where the error is caught (decisionOf), instead of a flag
 * set before each step that may throw.
 */
class DecidedFailure extends Error {
  constructor(
    readonly decision: AuditDecision,
    readonly error: unknown,
  ) {
    super("decided failure");
  }
}

/** Runs `step`; an error it throws leaves with `decision` (a step nested inside keeps its own). */
export async function decidedAs<T>(decision: AuditDecision, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    throw err instanceof DecidedFailure ? err : new DecidedFailure(decision, err);
  }
}

/**
 * The decision a failed request is recorded with, and its error: a refusal by policy or role is "denied"
 * wherever it came from; otherwise the decision of the step it left (`before` when it left none).
 */
export function decisionOf(err: unknown, before: AuditDecision): { decision: AuditDecision; error: unknown } {
  const decided = err instanceof DecidedFailure;
  const error = decided ? err.error : err;
  const denied = error instanceof BotError && error.denied;
  return { decision: denied ? "denied" : decided ? err.decision : before, error };
}

/** An access resolver that remembers the roles it resolved for one user, for that request's audit record. */
export interface RoleTrail {
  readonly access: AccessResolver;
  /** The lowest role resolved for the user so far; undefined when none was looked up. */
  role(): Role | "none" | undefined;
}

export function roleTrail(access: AccessResolver, userId: string): RoleTrail {
  let seen = false;
  let lowest: Role | undefined;
  const note = (uid: string, role: Role | undefined) => {
    if (uid !== userId) return role;
    if (!seen || role === undefined || (lowest !== undefined && !roleAtLeast(role, lowest))) lowest = role;
    seen = true;
    return role;
  };
  return {
    access: {
      roleOn: async (uid, array) => note(uid, await access.roleOn(uid, array)),
      bestRole: async (uid, arrays) => note(uid, await access.bestRole(uid, arrays)),
      ...(access.grantBehind ? { grantBehind: access.grantBehind } : {}),
    },
    role: () => (seen ? (lowest ?? "none") : undefined),
  };
}
