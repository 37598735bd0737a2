/**
 * Composition of the Slack app: one Bolt App over either transport (Socket Mode by default, HTTP with
 * signed requests), the paced Web API client, identity, chat port, listeners and the ops endpoints.
 * `createSlackApp(config, deps)` builds everything without touching the network; `start()` connects.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { App, HTTPReceiver, LogLevel, type Receiver, SocketModeReceiver } from "@slack/bolt";
import type { SlackConfig } from "../config/slack.js";
import type { Pipeline } from "../core/context/pipeline-types.js";
import { UserFacingError } from "../errors.js";
import type { Logger } from "../logger.js";
import { type CommandLabeler, UNKNOWN_COMMAND } from "../ops/command-label.js";
import { InFlight } from "../ops/in-flight.js";
import { createMetrics, type Metrics } from "../ops/metrics.js";
import { type ArrayHealthSource, Readiness } from "../ops/readiness.js";
import { type OpsServer, opsRoutes, startOpsServer } from "../ops/server.js";
import type { Store } from "../store/types.js";
import { boltLogger } from "./bolt-logger.js";
import { DeliveryDedupe } from "./dedupe.js";
import { DialogResponders } from "./dialog-responders.js";
import { runEffects } from "./effects.js";
import type { FetchFn } from "./file-upload.js";
import { type EarlyAck, guardReceiver, SLACK_BODY_LIMIT } from "./guarded-receiver.js";
import type { HomePort } from "./home.js";
import { createHomeRefresher, type HomeRefreshOptions } from "./home-refresh.js";
import { registerCommand } from "./listeners/command.js";
import type { ClickRoute, ListenerContext } from "./listeners/context.js";
import { publishHome, registerEvents } from "./listeners/events.js";
import { registerForms } from "./listeners/forms.js";
import { registerHome } from "./listeners/home.js";
import { registerInteractions } from "./listeners/interactions.js";
import { registerWorkflow } from "./listeners/workflow.js";
import { slackErrorCode } from "./paced-client.js";
import { createSlackPorts, type SlackPorts, webClientOptions } from "./ports.js";

export type { ClickRoute } from "./listeners/context.js";
export { createSlackPorts, type PortDeps, type SlackPorts, webClientOptions } from "./ports.js";

type Built<T> = T | ((ports: SlackPorts) => T);

export interface SlackAppDeps {
  logger: Logger;
  /** Runs when stopping, once in-flight work is done and before the Slack clients close (the audit channel's lines). */
  afterDrain?: () => Promise<void>;
  /** Ports built beforehand (`createSlackPorts`), so the composition root can hand them to the core first. */
  ports?: SlackPorts;
  /** The pipeline, or a factory for one that needs the identity port. */
  pipeline: Built<Pipeline>;
  home?: Built<HomePort>;
  /** Click handlers for buttons the pipeline does not own (the alert engine's "alert.…" buttons). */
  clickRoutes?: Built<readonly ClickRoute[]>;
  metrics?: Metrics;
  /** Array reachability for /readyz and the default App Home. */
  arrays?: ArrayHealthSource;
  /** User group ids the role bindings use. */
  groupIds?: readonly string[];
  /** Labels command metrics by command id (`commandLabeler(registry)`); without it every command is "unknown". */
  commandLabel?: CommandLabeler;
  now?: () => number;
  /** The App Home refresh after a change: its window (default 10 s) and timer; tests pass a timer they fire. */
  homeRefresh?: Pick<HomeRefreshOptions, "windowMs" | "schedule">;
  /** Waits for Retry-After and backoff; tests pass a controllable one. */
  sleep?: (ms: number) => Promise<void>;
  fetch?: FetchFn;
  /** Bind address of the HTTP listeners (the receiver, the ops server). */
  host?: string;
  /**
   * The shared state store when several replicas run (Redis): Slack retries are de-duplicated there too, and
   * /readyz reports not ready while it is unreachable.
   */
  sharedStore?: { store: Store; health: () => { up: boolean; detail: string } };
  /** Whether the process's own store takes writes (the SQLite data volume not full): /readyz says when not. */
  storeHealth?: () => { up: boolean; detail: string };
}

export interface SlackApp {
  readonly bolt: App;
  readonly ports: SlackPorts;
  readonly metrics: Metrics;
  readonly readiness: Readiness;
  /** Connects to Slack and opens the HTTP port; resolves with the port serving the ops endpoints. */
  start(): Promise<{ port: number }>;
  /**
   * Stops taking commands, lets in-flight work finish (bounded by `drainSeconds`, or `drainMs` when the
   * shutdown's grace leaves less), disconnects.
   */
  stop(opts?: { drainMs?: number }): Promise<void>;
  /** Expires stale approvals now (also runs on a timer). */
  sweep(): Promise<void>;
}

/** Start-up failures people can fix (a wrong or revoked token) become clear messages, not stack traces. */
function startError(err: unknown, variable: string, step: string): unknown {
  const code = slackErrorCode(err);
  if (code === undefined) return err;
  const hint = [
    "invalid_auth",
    "not_authed",
    "account_inactive",
    "token_revoked",
    "not_allowed_token_type",
  ].includes(code)
    ? ` Check ${variable}: it is wrong, revoked, or of the wrong type.`
    : "";
  return new UserFacingError("SLACK_START_FAILED", `Slack refused ${step}: ${code}.${hint}`, { cause: err });
}

function built<T>(b: Built<T>, ports: SlackPorts): T {
  return typeof b === "function" ? (b as (p: SlackPorts) => T)(ports) : b;
}

export function createSlackApp(config: SlackConfig, deps: SlackAppDeps): SlackApp {
  const logger = deps.logger.child({ component: "slack" });
  const metrics = deps.metrics ?? createMetrics();
  const now = deps.now ?? Date.now;
  const bl = boltLogger(deps.logger);
  const ports =
    deps.ports ??
    createSlackPorts(config, {
      logger: deps.logger,
      metrics,
      now,
      ...(deps.groupIds ? { groupIds: deps.groupIds } : {}),
      ...(deps.sleep ? { sleep: deps.sleep } : {}),
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
  const { client, identity, uploader } = ports;
  const pipeline = built(deps.pipeline, ports);
  const home: HomePort = deps.home
    ? built(deps.home, ports)
    : {
        load: async () => ({ role: "unknown", arrays: (await deps.arrays?.()) ?? [], pending: [], help: [] }),
      };

  const readiness = new Readiness(config.mode, deps.arrays);
  if (deps.sharedStore) readiness.store = deps.sharedStore.health;
  else if (deps.storeHealth) readiness.store = deps.storeHealth;
  const routes = opsRoutes({ metrics, readiness, logger });
  const inflight = new InFlight();

  const early: EarlyAck = { accepting: () => inflight.accepting };
  const receiver = createReceiver(config, { readiness, routes, boltLogger: bl, logger, early });

  const bolt = new App({
    receiver,
    token: config.botToken,
    logger: bl,
    logLevel: LogLevel.INFO,
    // Bolt's own client and respond() share the ports' capped keep-alive connections to Slack.
    clientOptions: webClientOptions(config, deps.logger, ports.http),
    deferInitialization: true,
    // Bolt's default conversation store is a middleware on every request and a process-local map we never
    // read (state lives in our own store); off, each ack does less work and nothing grows per channel.
    convoStore: false,
  });
  early.dispatch = (event) => bolt.processEvent(event);
  bolt.error(async (err) => {
    logger.error({ err }, "unhandled error in a Slack listener");
  });

  const ctx: ListenerContext = {
    pipeline,
    clickRoutes: deps.clickRoutes ? built(deps.clickRoutes, ports) : [],
    effects: {
      client,
      uploader,
      pipeline,
      tables: { kind: config.tables, pageSize: config.tablePageSize, charts: config.charts },
      dialogResponders: new DialogResponders(),
    },
    client,
    identity,
    home,
    inflight,
    dedupe: new DeliveryDedupe(
      10 * 60_000,
      now,
      10_000,
      deps.sharedStore ? { store: deps.sharedStore.store, logger } : undefined,
    ),
    metrics,
    logger,
    commandLabel: deps.commandLabel ?? (() => UNKNOWN_COMMAND),
    now,
  };
  ctx.homeRefresh = createHomeRefresher({
    ...deps.homeRefresh,
    now,
    publish: (userId) => publishHome(ctx, userId),
    onError: (err, userId) => logger.warn({ err, user: userId }, "could not refresh App Home"),
  });
  registerCommand(bolt, config.command, ctx);
  registerInteractions(bolt, ctx);
  registerForms(bolt, ctx);
  registerWorkflow(bolt, ctx);
  registerEvents(bolt, ctx);
  registerHome(bolt, ctx);

  const sweep = async () => {
    const effects = await pipeline.sweepExpired();
    if (effects.length === 0) return;
    const actor = { userId: "", channelId: "" };
    await runEffects(effects, { actor, requestId: "sweep", logger }, ctx.effects);
  };

  let sweepTimer: NodeJS.Timeout | undefined;
  let opsServer: OpsServer | undefined;

  return {
    bolt,
    ports,
    metrics,
    readiness,
    sweep,
    async start() {
      await bolt.init().catch((err: unknown) => {
        throw startError(err, "SLACK_BOT_TOKEN", "the bot token check (auth.test)");
      });
      const listening = await listen(bolt, config, { routes, readiness, host: deps.host });
      opsServer = listening.opsServer;
      const port = listening.port;
      readiness.configLoaded = true;
      identity.start();
      // Requests a stopped process left half-done end now, with their cards saying so (no click can take them:
      // they are "claimed", which no button acts on).
      await runEffects(
        await pipeline.recoverInterrupted(),
        { actor: { userId: "", channelId: "" }, requestId: "startup", logger },
        ctx.effects,
      ).catch((err: unknown) => logger.error({ err }, "recovering interrupted requests failed"));
      sweepTimer = setInterval(() => {
        sweep().catch((err: unknown) => logger.error({ err }, "sweep of expired approvals failed"));
      }, config.sweepSeconds * 1000);
      sweepTimer.unref();
      logger.info({ mode: config.mode, port }, "slack app started");
      return { port };
    },
    async stop(opts = {}) {
      readiness.shuttingDown = true;
      inflight.stopAccepting();
      clearInterval(sweepTimer);
      identity.stop();
      const left = await inflight.drain(Math.min(config.drainSeconds * 1000, opts.drainMs ?? Infinity));
      if (left > 0) logger.warn({ left }, "stopping with work still running");
      await deps
        .afterDrain?.()
        .catch((err: unknown) => logger.warn({ err }, "stop: after-drain work failed"));
      await bolt.stop().catch((err: unknown) => logger.warn({ err }, "receiver stop failed"));
      await opsServer?.close();
      await client.stop();
      await ports.http.close();
      readiness.slackConnected = false;
      logger.info("slack app stopped");
    },
  };
}

/**
 * The receiver for the configured mode: HTTP (signed requests, body limit, the ops routes beside Slack's) or
 * Socket Mode (whose connection state is the readiness's Slack state).
 */
function createReceiver(
  config: SlackConfig,
  o: {
    readiness: Readiness;
    routes: ReturnType<typeof opsRoutes>;
    boltLogger: ReturnType<typeof boltLogger>;
    logger: Logger;
    early: EarlyAck;
  },
): Receiver {
  const { readiness, routes, logger } = o;
  const bl = o.boltLogger;
  if (config.mode === "http") {
    const http = new HTTPReceiver({
      signingSecret: config.signingSecret ?? "",
      endpoints: config.eventsPath,
      customRoutes: routes,
      logger: bl,
      logLevel: LogLevel.INFO,
      bodyLimit: SLACK_BODY_LIMIT,
      // The guard below verifies every request to the events path before Bolt sees it, more cheaply.
      signatureVerification: false,
    });
    guardReceiver(http, {
      endpoints: [config.eventsPath],
      limit: SLACK_BODY_LIMIT,
      logger,
      signingSecret: config.signingSecret ?? "",
      early: o.early,
    });
    return http;
  } else {
    const socket = new SocketModeReceiver({
      appToken: config.appToken ?? "",
      logger: bl,
      logLevel: LogLevel.INFO,
      // Longer than the defaults: short ones cause spurious pong timeouts (bolt-js #2496).
      clientPingTimeout: config.pingTimeoutMs,
      serverPingTimeout: 60_000,
      // apps.connections.open keeps the socket client's own generous retry policy.
      installerOptions: {
        clientOptions: config.apiUrl === undefined ? {} : { slackApiUrl: config.apiUrl },
      },
    });
    socket.client.on("connected", () => {
      readiness.slackConnected = true;
      logger.info("socket mode connected");
    });
    for (const state of ["disconnected", "reconnecting"]) {
      socket.client.on(state, () => {
        readiness.slackConnected = false;
        if (readiness.shuttingDown) logger.info({ state }, "socket mode disconnected");
        else logger.warn({ state }, "socket mode connection lost");
      });
    }
    return socket;
  }
}

/**
 * Starts serving: in HTTP mode Bolt's server (the ops routes on it, or on METRICS_PORT's own server), in Socket
 * Mode the ops server first, then the socket. Returns the port health answers on.
 */
async function listen(
  bolt: App,
  config: SlackConfig,
  o: { routes: ReturnType<typeof opsRoutes>; readiness: Readiness; host: string | undefined },
): Promise<{ port: number; opsServer: OpsServer | undefined }> {
  const { routes, readiness } = o;
  let opsServer: OpsServer | undefined;
  let port: number;
  if (config.mode === "http") {
    const server = (await bolt.start({ port: config.port, host: o.host })) as Server;
    port = (server.address() as AddressInfo).port;
    readiness.slackConnected = true;
    // The routes are on the receiver too; a METRICS_PORT also gets its own server, as in Socket Mode.
    if (config.metricsPort !== undefined) {
      opsServer = await startOpsServer(routes, { port: config.metricsPort, host: o.host });
      port = opsServer.port;
    }
  } else {
    opsServer = await startOpsServer(routes, {
      port: config.metricsPort ?? config.port,
      host: o.host,
    });
    port = opsServer.port;
    await bolt.start().catch(async (err: unknown) => {
      await opsServer?.close();
      throw startError(err, "SLACK_APP_TOKEN", "opening the Socket Mode connection (apps.connections.open)");
    });
  }
  return { port, opsServer };
}
