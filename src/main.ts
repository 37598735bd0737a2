/**
 * Process entry: picks the face. With Slack credentials in the environment the bot runs in Slack; without them
 * it runs the local console: against the configuration given with --config, or against two simulated arrays with
 * demo users when none is given. Both faces get their parts from the one composition root, src/compose.ts.
 */
import { readFileSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import type { Clock } from "./alerts/types.js";
import { type Composed, compose } from "./compose.js";
import { type LoadedConfig, loadConfig } from "./config/load.js";
import { loadSlackConfig } from "./config/slack.js";
import { memoryAuditSink } from "./core/audit/audit.js";
import type { IdentityPort } from "./core/context/pipeline-types.js";
import { raceTimeout } from "./core/requests/slow-array.js";
import { isEntryPoint } from "./entry-point.js";
import { errorCode, isUserFacing, UserFacingError } from "./errors.js";
import { attachmentSaver } from "./local/attachments.js";
import { consoleLogSink } from "./local/console-log.js";
import { waitingCards } from "./local/console-store.js";
import { DEMO_USERS, demoIncidentFrom, startDemo } from "./local/demo.js";
import { runConsole } from "./local/run-console.js";
import { secretFileKeeper } from "./local/secret-out.js";
import { createLogger, flushLogs, type Logger, logLinesDropped } from "./logger.js";
import { applyProcessSettings } from "./ops/heap-options.js";
import type { Metrics } from "./ops/metrics.js";
import { redactUrlCredentials } from "./redact.js";
import { versionsOverride } from "./simulator/options.js";
import type { RunSlackDeps } from "./slack/run.js";

export interface MainIO {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** Whether stdin is a terminal (interactive console). */
  interactive: boolean;
  /** Whether stdout is a terminal: a secret shown once is printed only there (or with --show-secret). */
  stdoutIsTerminal?: boolean;
  /**
   * The demo's arrays on their own versions even when ARRAY_SIM_VERSIONS flips the test suite's arrays to one
   * generation: the docs' transcripts show the mixed demo `npm start` runs.
   */
  demoAsShipped?: boolean;
}

/** The console knows no groups and no guests: the person at the keyboard is whoever /as says. */
/**
 * How long a stopping bot waits for audit lines still queued for the audit channel (Slack takes one message a
 * second there; a full backlog is 50 messages): well inside Kubernetes' default 30-second grace period.
 */
const AUDIT_FLUSH_MS = 10_000;

const consoleIdentity: IdentityPort = { groupsOf: async () => [], isRestricted: async () => false };

async function runConsoleMode(loaded: LoadedConfig | undefined, io: MainIO): Promise<number> {
  // Warnings and errors only, in the console's short form: above its prompt while it runs, else on stderr.
  const logLines = consoleLogSink(io.stderr);
  const logger = createLogger({ level: "warn", destination: logLines.stream });
  const demo = loaded
    ? undefined
    : await startDemo(
        logger,
        demoIncidentFrom(io.argv),
        io.demoAsShipped ? null : (versionsOverride() ?? null),
      );
  const config = loaded ?? demo?.loaded;
  if (!config) throw new Error("no configuration");
  const audit = memoryAuditSink();
  // The configured store (the demo's is in memory), so a pending approval survives a restart.
  const core = await compose(config, {
    logger,
    identity: consoleIdentity,
    audit,
    ...(loaded ? {} : { store: { kind: "memory" } as const }),
  });
  // A change a stopped console was carrying out ends as interrupted rather than "being carried out".
  await core.pipeline.recoverInterrupted().catch(async (err: unknown) => {
    const detail = core.shared?.health().detail;
    await core.close();
    await demo?.close();
    throw storeUnreachableAtStart(err, config, detail);
  });
  const saveAttachment = attachmentSaver();
  const printSecrets = io.stdoutIsTerminal === true || io.argv.includes("--show-secret");
  try {
    const waiting = await waitingCards(core.pending, {
      now: Date.now(),
      timeZone: config.config.time_zone,
    });
    const users = demo ? DEMO_USERS : undefined;
    const banner = [
      demo
        ? `array-chatops console: demo arrays ${config.arrays.map((a) => a.name).join(", ")} (simulated), no Slack.`
        : `array-chatops console: arrays from ${config.source}, no Slack.`,
      demo
        ? "You are alice (admin). Switch with /as bob (operator), /as carol (viewer), /as dave (admin)."
        : "",
      "Type /array help for commands, /help for the console, /quit to leave.",
    ]
      .filter(Boolean)
      .join("\n");
    return await runConsole({
      pipeline: core.pipeline,
      outcomes: audit,
      input: io.stdin,
      output: io.stdout,
      interactive: io.interactive,
      initialUser: demo ? "alice" : "console",
      ...(users ? { knownUsers: users } : {}),
      banner,
      saveAttachment,
      ...(printSecrets ? {} : { keepSecret: secretFileKeeper() }),
      waiting,
      logLines,
      stillWaiting: async () =>
        (await core.pending.listOpen())
          .filter((r) => r.kind === "request" && r.status === "pending" && r.expiresAt > Date.now())
          .map((r) => r.display.title),
    });
  } finally {
    saveAttachment.close();
    await core.close();
    await demo?.close();
  }
}

/**
 * The console keeps its pending approvals in the configured store, so with Redis unreachable it cannot start:
 * it exits at once and says so (the store's own message, "read-only commands still work", is for a running
 * bot). The Slack face chooses the other way: it starts, with /readyz not ready until Redis answers.
 */
function storeUnreachableAtStart(err: unknown, loaded: LoadedConfig, detail?: string): unknown {
  const store = loaded.config.store;
  if (errorCode(err) !== "STORE_UNAVAILABLE" || store.kind !== "redis") return err;
  const cause = detail ? ` (${detail})` : "";
  return new UserFacingError(
    "STORE_UNAVAILABLE",
    `The console cannot start: Redis at ${store.address} (store.address) does not answer${cause}, and the console ` +
      "keeps its pending approvals there. Start Redis or correct store.address, or give the console its own " +
      "store (store.kind: sqlite). The Slack app, by contrast, starts and reports not ready on /readyz until " +
      "Redis answers.",
    { cause: err },
  );
}

export interface SlackModeOptions {
  logger: Logger;
  signals?: RunSlackDeps["signals"];
  onStarted?: RunSlackDeps["onStarted"];
  onStop?: RunSlackDeps["onStop"];
  /** Several replicas in one process (tests): each its own name in lease records, clock and metrics. */
  replica?: { id: string; clock: Clock; now: () => number; metrics: Metrics };
  /** Hears the composed parts once they exist (tests reach the store and the alert engine through it). */
  onComposed?: (core: Composed) => void;
}

/**
 * The Slack face: its ports first (the core needs their identity and chat), then the composed core, then the
 * app around finished parts. Resolves with the exit code after SIGTERM/SIGINT.
 */
export async function runSlackMode(loaded: LoadedConfig, opts: SlackModeOptions): Promise<number> {
  const slack = loaded.slack;
  if (!slack) throw new Error("runSlackMode needs a slack configuration");
  const { logger } = opts;
  const { createSlackPorts } = await import("./slack/app.js");
  const { identityGroupIds, openRequestCount, runSlack, slackAuditSink } = await import("./slack/run.js");
  const { createMetrics } = await import("./ops/metrics.js");
  let core: Composed | undefined;
  const metrics =
    opts.replica?.metrics ??
    createMetrics({
      pendingCount: async () => (core ? openRequestCount(core.pending)() : 0),
      logLinesDropped: () => logLinesDropped(logger),
      arrays: () => core?.pool.health() ?? [],
    });
  const ports = createSlackPorts(slack, { logger, metrics, groupIds: identityGroupIds(loaded.config) });
  const audit = slackAuditSink(loaded, ports, logger);
  core = await compose(loaded, {
    logger,
    identity: ports.identity,
    audit,
    chat: ports.chat,
    onArrayCall: metrics.arrayCalls.record,
    metrics,
    ...(opts.replica ? { replicaId: opts.replica.id, clock: opts.replica.clock, now: opts.replica.now } : {}),
  });
  opts.onComposed?.(core);
  const parts = { ...core, clickRoutes: core.alertClicks ? [core.alertClicks] : [] };
  let mcp: { close(): Promise<void> } | undefined;
  try {
    // Assistants' approval cards go to people in Slack (issue 29; docs/mcp.md).
    const { startMcpFace } = await import("./mcp/start.js");
    mcp = await startMcpFace(loaded, core, { logger, chat: ports.chat });
    const { replica: _replica, onComposed: _onComposed, ...runOpts } = opts;
    return await runSlack(loaded, {
      ...runOpts,
      onStop: async () => {
        await mcp?.close();
        await opts.onStop?.();
      },
      // Audit lines still waiting for the channel's pace go out, for as long as a rolling update can wait.
      afterDrain: async () => {
        await raceTimeout(AUDIT_FLUSH_MS, audit.flush());
      },
      metrics,
      ports,
      parts,
      ...(core.shared ? { sharedStore: core.shared } : {}),
    });
  } catch (err) {
    await mcp?.close();
    await core.close();
    throw err;
  }
}

export async function main(io: MainIO): Promise<number> {
  try {
    const readFile = (p: string) => readFileSync(p, "utf8");
    const loaded = loadConfig({ argv: io.argv, env: io.env, readFile });
    if (loaded?.slack) {
      const logger = createLogger({
        level: loaded.config.log_level,
        bufferBytes: loaded.config.log_buffer_bytes,
      });
      const code = await runSlackMode(loaded, { logger });
      // The last lines (the shutdown's own) go out if stdout takes them soon; a stalled reader cannot hold the exit.
      const { shutdownBudget } = await import("./slack/run.js");
      await flushLogs(logger, shutdownBudget(loaded.config.shutdown_grace).flushMs);
      return code;
    }
    if (!loaded && loadSlackConfig(io.env)) {
      io.stderr.write(
        "Slack credentials are set but no configuration: give --config <file> or ARRAY_CHATOPS_CONFIG.\n",
      );
      return 2;
    }
    return await runConsoleMode(loaded, io);
  } catch (err) {
    // Whatever is printed passes the URL-credential redaction: a start-up error may quote an address.
    if (isUserFacing(err)) {
      io.stderr.write(`${redactUrlCredentials(err.message)}\n`);
      return 2;
    }
    const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
    io.stderr.write(`array-chatops failed to start: ${redactUrlCredentials(detail)}\n`);
    return 1;
  }
}

if (isEntryPoint(import.meta.url, process.argv[1])) {
  applyProcessSettings();
  main({
    argv: process.argv.slice(2),
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    interactive: process.stdin.isTTY === true,
    stdoutIsTerminal: process.stdout.isTTY === true,
  }).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${String(err)}\n`);
      process.exit(1);
    },
  );
}
