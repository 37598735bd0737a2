/**
 * The Slack branch of the process: builds the Slack app around the command core, wires identity, App Home,
 * the audit channel and metrics, starts it, and shuts down gracefully on SIGTERM/SIGINT (stop taking
 * commands, finish in-flight work, log out of arrays). Resolves with the exit code once stopped.
 */
import { RESOURCES } from "../../commands/index.js";
import type { LoadedConfig } from "../config/load.js";
import type { AuditSink } from "../core/audit.js";
import { createAccessResolver } from "../core/authz.js";
import { createMemoryPendingStore, type PendingStore } from "../core/pending-store.js";
import type { IdentityPort, Pipeline } from "../core/pipeline-types.js";
import { createRegistry } from "../core/registry.js";
import type { ArrayCallEvent, ArrayPool } from "../flashblade/types.js";
import type { Logger } from "../logger.js";
import { commandLabeler } from "../ops/command-label.js";
import { createMetrics, type Metrics } from "../ops/metrics.js";
import { arrayHealthFrom } from "../ops/readiness.js";
import { onShutdownSignals, type SignalTarget } from "../ops/shutdown.js";
import { type ClickRoute, createSlackApp, type SlackAppDeps, type SlackPorts } from "./app.js";
import { createAuditChannelSink } from "./audit-channel.js";
import { createChatPort } from "./chat-port.js";
import { createFileUploader } from "./file-upload.js";
import { createHomePort } from "./home-data.js";

export interface CoreParts {
  pipeline: Pipeline;
  pool: ArrayPool;
}

export interface RunSlackDeps {
  logger: Logger;
  /**
   * Builds the command core (main.ts's buildCore) with the Slack identity, store and audit sink; give
   * `onArrayCall` to the array pool so array calls show in /metrics.
   */
  buildCore: (deps: {
    identity: IdentityPort;
    store: PendingStore;
    audit: AuditSink;
    onArrayCall: (event: ArrayCallEvent) => void;
  }) => CoreParts;
  /** A durable pending store; in memory when none is given (approvals then do not survive a restart). */
  store?: PendingStore;
  /** Extra click handlers (the alert engine), built once the Slack ports exist. */
  clickRoutes?: (ports: SlackPorts, core: CoreParts) => readonly ClickRoute[];
  /** Runs once Slack is connected (start the alert engine on `ports.chat`). */
  onStarted?: (ports: SlackPorts, core: CoreParts) => Promise<void> | void;
  /** Extra shutdown work after Slack stops (alert engine, store), before arrays are logged out of. */
  onStop?: () => Promise<void>;
  /** Metrics built by the caller (so the store can count its errors from the start); one is made when absent. */
  metrics?: Metrics;
  /** The store replicas share (Redis): Slack retries are de-duplicated there, /readyz watches it. */
  sharedStore?: SlackAppDeps["sharedStore"];
  /** Where SIGTERM/SIGINT come from: `process` in production. */
  signals?: { once(signal: "SIGTERM" | "SIGINT", fn: () => void): unknown };
}

/** The open approval requests gauge's source. */
export function openRequestCount(store: PendingStore): () => Promise<number> {
  return async () => (await store.listOpen()).filter((r) => r.kind === "request").length;
}

/** User-group ids anywhere in the access rules: the groups whose members identity must know. */
export function accessGroupIds(access: LoadedConfig["config"]["access"]): string[] {
  const ids = [access, ...access.overrides].flatMap((b) =>
    [b.admin, b.operator, b.viewer].flatMap((m) => m?.groups ?? []),
  );
  return [...new Set(ids)];
}

export async function runSlack(loaded: LoadedConfig, deps: RunSlackDeps): Promise<number> {
  const slack = loaded.slack;
  if (slack === undefined) throw new Error("runSlack needs a slack configuration");
  const logger = deps.logger;
  const store = deps.store ?? createMemoryPendingStore();
  if (deps.store === undefined) logger.warn("pending approvals are kept in memory: a restart forgets them");
  const registry = createRegistry(RESOURCES);
  const metrics = deps.metrics ?? createMetrics({ pendingCount: openRequestCount(store) });
  let core: CoreParts | undefined;
  const health = () => core?.pool.health() ?? [];

  const app = createSlackApp(slack, {
    logger,
    metrics,
    pipeline: (ports) => {
      const audit: AuditSink =
        loaded.config.audit_channel === undefined
          ? { write: () => {} }
          : createAuditChannelSink({
              channelId: loaded.config.audit_channel,
              // Its own chat port so audit lines are not counted as alert posts.
              chat: createChatPort({
                client: ports.client,
                uploader: createFileUploader({ client: ports.client, logger }),
                logger,
              }),
              logger,
            });
      core = deps.buildCore({
        identity: ports.identity,
        store,
        audit,
        onArrayCall: metrics.arrayCalls.record,
      });
      return core.pipeline;
    },
    home: (ports) =>
      createHomePort({
        access: createAccessResolver(loaded.config.access, ports.identity),
        arrays: health,
        pending: store,
        commands: () => registry.all(),
      }),
    ...(deps.clickRoutes
      ? { clickRoutes: (ports: SlackPorts) => deps.clickRoutes?.(ports, core as CoreParts) ?? [] }
      : {}),
    arrays: arrayHealthFrom(health),
    ...(deps.sharedStore ? { sharedStore: deps.sharedStore } : {}),
    groupIds: accessGroupIds(loaded.config.access),
    commandLabel: commandLabeler(registry),
  });

  await app.start();
  if (core === undefined) throw new Error("the pipeline factory did not run");
  await deps.onStarted?.(app.ports, core);
  return new Promise<number>((resolve) => {
    const target: SignalTarget = {
      once: (signal, fn) => (deps.signals ?? process).once(signal, fn),
      exit: (code) => resolve(code),
    };
    onShutdownSignals(
      target,
      [
        { name: "stop taking commands and finish in-flight work", run: () => app.stop() },
        { name: "stop other parts", run: () => deps.onStop?.() ?? Promise.resolve() },
        { name: "log out of arrays", run: () => core?.pool.close() ?? Promise.resolve() },
      ],
      logger,
    );
  });
}
