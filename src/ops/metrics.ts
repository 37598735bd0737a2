/**
 * The Prometheus metrics the bot exports. One registry per running app (tests build their own), never
 * prom-client's global one. Label values are bounded: command labels are registry ids (command-label.ts),
 * never what people type.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { type ArrayCallRecorder, createArrayCallRecorder } from "./array-calls.js";

export interface Metrics {
  readonly registry: Registry;
  /** Commands by id (`fs.list`, `help`, `unknown`) and outcome (ok, error, rejected, duplicate). */
  readonly commands: Counter<"command" | "outcome">;
  /** Time from receipt of a command to its last effect. */
  readonly commandSeconds: Histogram<"command">;
  /** Button clicks and modal submissions by outcome. */
  readonly clicks: Counter<"outcome">;
  /** Calls to arrays by array and outcome, and failed calls by code: fed by `arrayCalls`. */
  readonly arrayCallSeconds: Histogram<"array" | "outcome">;
  readonly arrayCallErrors: Counter<"array" | "code">;
  /** The array pool's call observer: pass `arrayCalls.record` as PoolDeps.onCall. */
  readonly arrayCalls: ArrayCallRecorder;
  /** Approval requests waiting for a decision. */
  readonly pendingApprovals: Gauge;
  /** Alert messages posted or updated through the chat port. */
  readonly alertPosts: Counter<"kind" | "outcome">;
  /** Slack Web API calls by method and outcome (ok, error, rate_limited, retried). */
  readonly slackCalls: Counter<"method" | "outcome">;
  /** Failed store calls by operation (read, list, write, update, take, sweep). */
  readonly storeErrors: Counter<"op">;
  /** 1 while the store is reachable. */
  readonly storeUp: Gauge;
  /** Commands refused by a person's limit (rate, concurrency) or stopped at their request budget (budget). */
  readonly rateLimited: Counter<"reason">;
  /** Leases this replica took, lost or released, by lease kind (poll) and change. */
  readonly leaseChanges: Counter<"lease" | "change">;
  /** Log lines dropped because stdout did not take them (a full or closed pipe): read from the logger. */
  readonly logLinesDropped: Counter;
  /** Audit lines an export target (file, syslog) dropped because its queue was full. */
  readonly auditExportDropped: Counter<"target">;
  /** 1 per array that answers and takes the bot's token, 0 otherwise (down, refused, not answered yet). */
  readonly arrayUp: Gauge<"array">;
}

export interface MetricsOptions {
  /** Process metrics (CPU, memory, event loop lag); off in tests to keep the output small. */
  collectDefault?: boolean;
  prefix?: string;
  /** Counts open approval requests at scrape time (the pending store knows; nothing has to keep a tally). */
  pendingCount?: () => Promise<number>;
  /** The logger's own count of dropped lines (src/logger.ts `logLinesDropped`), read at scrape time. */
  logLinesDropped?: () => number;
  /** The arrays' health at scrape time (the pool knows; read when scraped, as the pending count is). */
  arrays?: () => readonly { name: string; reachable: boolean }[];
}

export function createMetrics(opts: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  const p = opts.prefix ?? "array_chatops_";
  if (opts.collectDefault ?? true) collectDefaultMetrics({ register: registry, prefix: p });
  const registers = [registry];
  const arrayCallSeconds = new Histogram({
    name: `${p}array_call_duration_seconds`,
    help: "Latency of REST calls to arrays",
    labelNames: ["array", "outcome"],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const arrayCallErrors = new Counter({
    name: `${p}array_call_errors_total`,
    help: "Failed REST calls to arrays, by error code",
    labelNames: ["array", "code"],
    registers,
  });
  const arrayCalls = createArrayCallRecorder(arrayCallSeconds, arrayCallErrors);
  return {
    registry,
    commands: new Counter({
      name: `${p}commands_total`,
      help: "Slash commands handled, by command and outcome",
      labelNames: ["command", "outcome"],
      registers,
    }),
    commandSeconds: new Histogram({
      name: `${p}command_duration_seconds`,
      help: "Time from receipt of a command to its last reply",
      labelNames: ["command"],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
      registers,
    }),
    clicks: new Counter({
      name: `${p}clicks_total`,
      help: "Button clicks and modal submissions, by outcome",
      labelNames: ["outcome"],
      registers,
    }),
    arrayCallSeconds,
    arrayCallErrors,
    arrayCalls,
    pendingApprovals: new Gauge({
      name: `${p}pending_approvals`,
      help: "Approval requests waiting for a decision",
      registers,
      ...(opts.pendingCount === undefined
        ? {}
        : {
            async collect(this: Gauge) {
              // With the shared store down the count is unknown: keep the last value rather than fail the scrape.
              const n = await (opts.pendingCount as () => Promise<number>)().catch(() => undefined);
              if (n !== undefined) this.set(n);
            },
          }),
    }),
    alertPosts: new Counter({
      name: `${p}alert_posts_total`,
      help: "Alert messages posted or updated in Slack",
      labelNames: ["kind", "outcome"],
      registers,
    }),
    slackCalls: new Counter({
      name: `${p}slack_api_calls_total`,
      help: "Slack Web API calls, by method and outcome",
      labelNames: ["method", "outcome"],
      registers,
    }),
    storeErrors: new Counter({
      name: `${p}store_errors_total`,
      help: "Failed calls to the state store (Redis unreachable, timeouts), by operation",
      labelNames: ["op"],
      registers,
    }),
    rateLimited: new Counter({
      name: `${p}rate_limited_total`,
      help: "Commands refused by a person's limit or stopped at their array request budget, by reason",
      labelNames: ["reason"],
      registers,
    }),
    storeUp: new Gauge({ name: `${p}store_up`, help: "1 while the state store is reachable", registers }),
    arrayUp: new Gauge({
      name: `${p}array_up`,
      help: "1 while an array answers and takes the bot's API token, 0 while it is down, refuses it or has not answered yet",
      labelNames: ["array"],
      registers,
      ...(opts.arrays === undefined
        ? {}
        : {
            collect(this: Gauge<"array">) {
              for (const a of (opts.arrays as NonNullable<MetricsOptions["arrays"]>)())
                this.set({ array: a.name }, a.reachable ? 1 : 0);
            },
          }),
    }),
    leaseChanges: new Counter({
      name: `${p}lease_changes_total`,
      help: "Leases this replica acquired, lost or released, by lease kind",
      labelNames: ["lease", "change"],
      registers,
    }),
    logLinesDropped: droppedCounter(`${p}log_lines_dropped_total`, registers, opts.logLinesDropped),
    auditExportDropped: new Counter({
      name: `${p}audit_export_dropped_total`,
      help: "Audit lines dropped by an export target (file, syslog) whose queue was full",
      labelNames: ["target"],
      registers,
    }),
  };
}

/**
 * The logger counts what it drops itself (it exists before the metrics do, and must never wait on them); the
 * counter catches up with that count at each scrape.
 */
function droppedCounter(name: string, registers: Registry[], read: (() => number) | undefined): Counter {
  let seen = 0;
  return new Counter({
    name,
    help: "Log lines dropped because stdout did not take them (a full or closed pipe)",
    registers,
    ...(read === undefined
      ? {}
      : {
          collect(this: Counter) {
            const n = read();
            if (n > seen) this.inc(n - seen);
            seen = Math.max(seen, n);
          },
        }),
  });
}
