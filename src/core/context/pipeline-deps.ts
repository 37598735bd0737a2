/** Everything the pipeline needs, passed in once; tests swap the clock, the store, the sink and identity. */

import type { LimitsConfig } from "../../config/limits.js";
import type { AppConfig } from "../../config/schema.js";
import type { ArrayPool } from "../../flashblade/types.js";
import type { Logger } from "../../logger.js";
import type { ExecutionLeases } from "../../store/execution-lease.js";
import type { LimitReason } from "../access/person-limits.js";
import type { PendingStore } from "../approvals/pending-store.js";
import type { AuditSink } from "../audit/audit.js";
import type { AuditChain } from "../audit/audit-chain.js";
import type { AuditHistory } from "../audit/audit-history.js";
import type { Registry } from "../catalogue/registry.js";
import type { ChangeControlRecords } from "../change-control/records.js";
import type { AlertCommandPort } from "./alert-port.js";
import type { IdentityPort } from "./pipeline-types.js";

export type PipelineConfig = Pick<AppConfig, "access" | "channels" | "destructive" | "time_zone"> &
  Partial<
    Pick<
      AppConfig,
      | "fan_out_deadline"
      | "table_rows"
      | "mcp"
      | "workflow_steps"
      | "approvals"
      | "freeze"
      | "break_glass"
      | "access_requests"
    >
  >;

export interface PipelineDeps {
  registry: Registry;
  pool: ArrayPool;
  config: PipelineConfig;
  identity: IdentityPort;
  store: PendingStore;
  audit: AuditSink;
  /** Where records of changes are kept for `/array history` (the store, so every replica reads them). */
  history?: AuditHistory;
  /** The store's audit hash chain every record joins before it is logged (the composition root always passes it). */
  auditChain?: AuditChain;
  logger: Logger;
  /** Milliseconds since the epoch. */
  now: () => number;
  /** Ids for requests without a transport id and for pending records; random by default. */
  newId?: () => string;
  /**
   * Resolves after `ms` (the fan-out deadline) unless `ended` aborts first: the wait is over and the timer is
   * cleared. A real timer unless a test brings its own.
   */
  timer?: (ms: number, ended: AbortSignal) => Promise<void>;
  /** The running alert engine, handed to commands as `ctx.alerts`. */
  alerts?: AlertCommandPort;
  /** Execution leases: who carries out a claimed request (see src/core/approvals/recovery.ts); none = exclusive store. */
  executions?: ExecutionLeases;
  /**
   * What one person can make the bot do (the configuration's `limits`; the composition root always passes
   * them). Absent, nothing is limited: only pipelines built by hand in tests leave them out.
   */
  limits?: LimitsConfig;
  /**
   * Break-glass entries and time-bound access grants (src/core/change-control/records.ts), in the shared store so
   * every replica agrees; in memory when absent (tests, pipelines built by hand).
   */
  changeControl?: ChangeControlRecords;
  /**
   * Throws a user-facing refusal when the store cannot record a change now (the SQLite data volume is full, no
   * writable Redis primary): changes and the clicks that carry them out are refused before anything is sent to
   * an array, so nothing is left half done.
   */
  assertStoreWritable?: () => void;
  /** Hears each command refused or stopped by a limit (metrics); the reason is a bounded label. */
  onLimited?: (reason: LimitReason) => void;
}

/** Action ids of the buttons the pipeline puts on messages; the value is always a pending-record id. */
export const ACTIONS = {
  confirm: "array.pending.confirm",
  approve: "array.pending.approve",
  deny: "array.pending.deny",
  offer: "array.pending.offer",
} as const;
