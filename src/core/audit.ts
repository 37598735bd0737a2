/**
 * One audit record per request, from the first word typed to the final outcome: who, where, which arrays,
 * what, the decision (allowed, denied, pending, approved by whom, vetoed, expired, voided) and the outcome.
 * Records go to the log (child logger `component: "audit"`) and to an injected sink (the Slack layer may post
 * them to the audit channel; tests collect them). With a chain (src/core/audit-chain.ts) each record first takes
 * its place in the store's hash chain, so the log line, the sink and the export all carry seq, prev_hash, hash.
 */

import type { Logger } from "../logger.js";
import { redact } from "../redact.js";
import { currentTrace } from "../trace.js";
import type { AuditChain } from "./audit-chain.js";
import type { AccessResolver } from "./authz.js";
import { redactTypedArgs } from "./redact.js";
import { type Role, roleAtLeast } from "./roles.js";

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

/** The `role` field of a record, left out when no role was looked up. */
export function withRole(role: Role | "none" | undefined): { role?: Role | "none" } {
  return role === undefined ? {} : { role };
}
