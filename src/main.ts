/**
 * Process entry and composition root. With Slack credentials in the environment the bot runs in Slack;
 * without them it runs the local console: against the configuration given with --config, or against two
 * simulated arrays with demo users when none is given.
 */
import { readFileSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import { pino } from "pino";
import { RESOURCES } from "../commands/index.js";
import type { AlertCommandPort } from "./alerts/command-port.js";
import { type LoadedConfig, loadConfig } from "./config/load.js";
import { loadSlackConfig } from "./config/slack.js";
import { type AuditSink, memoryAuditSink } from "./core/audit.js";
import { createMemoryPendingStore, type PendingStore } from "./core/pending-store.js";
import { createPipeline } from "./core/pipeline.js";
import type { IdentityPort, Pipeline } from "./core/pipeline-types.js";
import { createRegistry } from "./core/registry.js";
import { isUserFacing } from "./errors.js";
import { createArrayPool } from "./flashblade/pool.js";
import type { ArrayCallEvent, ArrayPool } from "./flashblade/types.js";
import { attachmentSaver } from "./local/attachments.js";
import { DEMO_USERS, startDemo } from "./local/demo.js";
import { runConsole } from "./local/run-console.js";
import { createLogger, type Logger } from "./logger.js";

export interface MainIO {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** Whether stdin is a terminal (interactive console). */
  interactive: boolean;
}

export interface Core {
  pipeline: Pipeline;
  pool: ArrayPool;
}

/** The pipeline over the configured arrays; transports bring their identity port, store and audit sink. */
export function buildCore(
  loaded: LoadedConfig,
  deps: {
    logger: Logger;
    identity: IdentityPort;
    audit: AuditSink;
    store?: PendingStore;
    now?: () => number;
    /** The alert engine's command port (`alert routes`, `alert test`). */
    alerts?: AlertCommandPort;
    /** Hears every completed array call (Slack mode records them as metrics). */
    onArrayCall?: (event: ArrayCallEvent) => void;
  },
): Core {
  const now = deps.now ?? Date.now;
  const pool = createArrayPool(loaded.arrays, {
    logger: deps.logger,
    now,
    ...(deps.onArrayCall ? { onCall: deps.onArrayCall } : {}),
  });
  const pipeline = createPipeline({
    registry: createRegistry(RESOURCES),
    pool,
    config: loaded.config,
    identity: deps.identity,
    store: deps.store ?? createMemoryPendingStore(),
    audit: deps.audit,
    logger: deps.logger,
    now,
    ...(deps.alerts ? { alerts: deps.alerts } : {}),
  });
  return { pipeline, pool };
}

/** The console knows no groups and no guests: the person at the keyboard is whoever /as says. */
const consoleIdentity: IdentityPort = { groupsOf: async () => [], isRestricted: async () => false };

async function runConsoleMode(loaded: LoadedConfig | undefined, io: MainIO): Promise<number> {
  // Logs go to stderr so they never mix with answers; the console shows warnings and errors only.
  const logger = createLogger({ level: "warn", destination: pino.destination({ dest: 2, sync: true }) });
  const demo = loaded ? undefined : await startDemo(logger);
  const config = loaded ?? demo?.loaded;
  if (!config) throw new Error("no configuration");
  const audit = memoryAuditSink();
  const core = buildCore(config, { logger, identity: consoleIdentity, audit });
  try {
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
      saveAttachment: attachmentSaver(),
    });
  } finally {
    await core.pool.close();
    await demo?.close();
  }
}

async function runSlackMode(loaded: LoadedConfig): Promise<number> {
  const logger = createLogger({ level: loaded.config.log_level });
  // The Slack transport (src/slack/run.ts) brings the identity port, App Home, the audit channel, metrics and
  // graceful shutdown; it resolves with the exit code after SIGTERM/SIGINT.
  const { runSlack } = await import("./slack/run.js");
  // Alerting owns the durable store, which also keeps pending approvals across restarts.
  const { openAlerting } = await import("./alerts/start.js");
  // [replicas] metrics exist before the store opens, so a Redis store counts its errors from the first call;
  // `shared` is set when replicas share a Redis store (de-duplication of Slack retries, /readyz).
  const { createMetrics } = await import("./ops/metrics.js");
  const { openRequestCount } = await import("./slack/run.js");
  let pendingCount = async () => 0;
  const metrics = createMetrics({ pendingCount: () => pendingCount() });
  const alerting = openAlerting(loaded, { logger, metrics });
  pendingCount = openRequestCount(alerting.pending);
  return runSlack(loaded, {
    logger,
    metrics,
    ...(alerting.shared ? { sharedStore: alerting.shared } : {}),
    store: alerting.pending,
    buildCore: ({ identity, store, audit, onArrayCall }) =>
      buildCore(loaded, { logger, identity, store, audit, onArrayCall, alerts: alerting.commands }),
    clickRoutes: (ports, core) => [
      alerting.attach({
        chat: ports.chat,
        pool: core.pool,
        identity: ports.identity,
        pipeline: core.pipeline,
      }),
    ],
    onStop: () => alerting.stop(),
  });
}

export async function main(io: MainIO): Promise<number> {
  try {
    const readFile = (p: string) => readFileSync(p, "utf8");
    const loaded = loadConfig({ argv: io.argv, env: io.env, readFile });
    if (loaded?.slack) return await runSlackMode(loaded);
    if (!loaded && loadSlackConfig(io.env)) {
      io.stderr.write(
        "Slack credentials are set but no configuration: give --config <file> or ARRAY_CHATOPS_CONFIG.\n",
      );
      return 2;
    }
    return await runConsoleMode(loaded, io);
  } catch (err) {
    if (isUserFacing(err)) {
      io.stderr.write(`${err.message}\n`);
      return 2;
    }
    io.stderr.write(
      `array-chatops failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    return 1;
  }
}

const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(entry).href) {
  main({
    argv: process.argv.slice(2),
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    interactive: process.stdin.isTTY === true,
  }).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${String(err)}\n`);
      process.exit(1);
    },
  );
}
