/**
 * One audit record per request, from the first word typed to the final outcome: who, where, which arrays,
 * what, the decision (allowed, denied, pending, approved by whom, vetoed, expired, voided) and the outcome.
 * Records go to the log (child logger `component: "audit"`) and to an injected sink (the Slack layer may post
 * them to the audit channel; tests collect them).
 */
import type { Logger } from "../logger.js";

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
  | "voided";

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
  text?: string;
  decision: AuditDecision;
  /** Everyone who approved or confirmed, for decisions that carry out a gated request. */
  approvedBy?: string[];
  pendingId?: string;
  outcome: "ok" | "error";
  errorCode?: string;
  durationMs: number;
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

/** Writes each record to the log and to the sink; a failing sink is logged, never fatal to the request. */
export function createAuditor(logger: Logger, sink: AuditSink): Auditor {
  const log = logger.child({ component: "audit" });
  return {
    async record(rec) {
      log.info({ audit: rec }, `audit ${rec.command} ${rec.decision} ${rec.outcome}`);
      try {
        await sink.write(rec);
      } catch (err) {
        log.error({ err, auditId: rec.id }, "audit sink failed");
      }
    },
  };
}
