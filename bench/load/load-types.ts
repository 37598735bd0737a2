/** What the load test is asked to do (run-load.ts) and what it reports. */
import type { ApproveBreakdown } from "./approve-trace.js";
import type { FailoverReport } from "./failover.js";
import type { MemoryReport, Percentiles } from "./figures.js";
import type { FleetFileSystems } from "./fleet.js";
import type { Reconciliation } from "./reconcile.js";

export interface LoadOptions {
  arrays: number;
  /** Commands (and clicks) started per second. */
  rate: number;
  seconds: number;
  users: number;
  faults: boolean;
  seed?: number;
  /** How long to wait for operations still in flight once sending stops (default 60 s); what is left is unanswered. */
  drainMs?: number;
  /** Progress lines (the CLI prints them). */
  log?: (line: string) => void;
  /** Run the bot in a child process, so the memory reported is the bot's alone (bot.ts); default true. */
  botInChild?: boolean;
  /** Start that child with the image's heap settings (src/ops/heap-options.ts); default true. */
  heapOptions?: boolean;
  /**
   * Where the bot keeps pending approvals: in memory (the default, as the load has always run), or in SQLite on
   * disk (WAL, synchronous full), as a deployment without Redis does (`--pending sqlite`).
   */
  pending?: "memory" | "sqlite";
  /** Run the simulated arrays in a child process, so this process's memory is the bot's (fleet.ts). */
  fleetInChild?: boolean;
  /** Where to write heap snapshots of the bot's process, after warm-up and at the end (warm/end.heapsnapshot). */
  heapSnapshotDir?: string;
  /**
   * A steady fleet: the arrays eradicate destroyed file systems this long after the destroy (a real array's
   * eradication delay, 24 h, compressed), creates and destroys are sent as often as each other, and approvals
   * go only to file systems destroyed less than half of it ago. Unset (the default): the arrays grow with the run.
   */
  eradicateAfterMs?: number;
  /**
   * The bot as this many replicas on Redis under Sentinel, the primary SIGKILLed at half time (failover.ts) unless
   * `kill` is false (replicas sharing Redis, nothing killed).
   */
  failover?: { replicas: number; kill?: boolean };
}

export type Kind = "read" | "create" | "destroy" | "confirm" | "eradicate" | "approve";

export interface LoadReport {
  sent: Record<Kind, number>;
  answered: number;
  unanswered: number;
  latencyMs: Record<Kind, Percentiles>;
  /** The approve click with the name in the card to the card replaced; through the dialog: click to dialog, submit to card updated. */
  approveStepsMs: {
    inCard: Percentiles;
    dialog: Percentiles;
    carriedOut: Percentiles;
    /** Whole approvals that met no 429 from Slack on their dialog or card update. */
    unthrottled: Percentiles;
  };
  /** Where approvals' time went: before, in and after their array calls (approve-trace.ts); the bot's loop delay. */
  approveBreakdown?: ApproveBreakdown;
  /**
   * Records in the bot's pending store at the end: in memory, the open ones and the finished it keeps; in SQLite,
   * the open ones.
   */
  pendingRecords: number;
  /** What the driver still waits for at the end (0 each when nothing leaks). */
  leftListening: { stubWaits: number; optional: number; waiting: number };
  reconciliation: Reconciliation;
  slack429: number;
  slack429ByMethod: Record<string, number>;
  /** Approvals the bot answered without carrying them out (a fault, or a stale plan voided). */
  approvalsNotCarriedOut: number;
  /** This process's memory (the bot, the driver and the fake Slack; the arrays too unless fleetInChild). */
  memory: MemoryReport;
  /** The RSS of the arrays' process at the end, when they run in a child. */
  fleetRssMiB?: number;
  /**
   * The file systems on the arrays at the bot's memory marks (after warm-up, at half, at the end): creates
   * outnumber eradications, so the lists the load reads grow over the run, and the bot's buffers with them.
   */
  fileSystemsAtMarks: FleetFileSystems[];
  wallSeconds: number;
  failover?: FailoverReport;
}
