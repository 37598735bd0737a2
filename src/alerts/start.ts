/**
 * Alerting's part of the composition (src/compose.ts): on the store the composition opened (it also keeps the
 * command layer's pending approvals), builds the alert engine once the chat port and the array pool exist. The
 * command port is usable before that (commands then say alerts are not running yet).
 */
import { hostname } from "node:os";
import { dirname, isAbsolute, resolve } from "node:path";
import type { LoadedConfig } from "../config/load.js";
import { redisStoreOptions } from "../config/store.js";
import { createAccessResolver } from "../core/access/authz.js";
import { roleAtLeast } from "../core/access/roles.js";
import type { AlertCommandPort } from "../core/context/alert-port.js";
import type { IdentityPort, Pipeline } from "../core/context/pipeline-types.js";
import { UserFacingError } from "../errors.js";
import type { ArrayPool } from "../flashblade/types.js";
import type { Logger } from "../logger.js";
import type { Metrics } from "../ops/metrics.js";
import { storeHealth } from "../store/index.js";
import type { Store, StoreOptions } from "../store/types.js";
import { type AlertEngine, createAlertEngine } from "./engine.js";
import { poolAlertSource } from "./pool-source.js";
import type { AlertAuthorizer, AlertChat, Clock } from "./types.js";

export interface Alerting {
  /** Set when replicas share the store (Redis): the Slack app de-duplicates through it and /readyz watches it. */
  shared?: { store: Store; health: () => { up: boolean; detail: string } };
  /** Forwards to the engine once it runs. */
  commands: AlertCommandPort;
  /** Builds and starts the engine; returns it (it is also the click route for "alert." buttons). */
  attach(ports: {
    chat: AlertChat;
    pool: ArrayPool;
    identity: IdentityPort;
    pipeline: Pipeline;
  }): AlertEngine;
  /** Stops the engine (the store belongs to whoever opened it). */
  stop(): Promise<void>;
}

/**
 * The `store` section as open options. Config loading has made data_dir absolute (src/config/data-dir.ts);
 * a configuration built in code (the demo) may leave it relative or unset, which is then taken from the
 * config file's directory, or the working directory for the demo.
 */
export function storeOptions(loaded: LoadedConfig): StoreOptions {
  const s = loaded.config.store;
  if (s.kind === "memory") return { kind: "memory" };
  if (s.kind === "redis") return redisStoreOptions(s, loaded.storeSecrets);
  const dir = s.data_dir ?? "data";
  const base = loaded.source === "demo" ? process.cwd() : dirname(resolve(loaded.source));
  return {
    kind: "sqlite",
    dataDir: isAbsolute(dir) ? dir : resolve(base, dir),
    synchronous: s.synchronous,
  };
}

export interface AlertingDeps {
  logger: Logger;
  /** The store the composition opened (it also keeps pending approvals). */
  store: Store;
  /** The alert engine's clock (tests drive replicas with a manual one). */
  clock?: Clock;
  /** Lease changes are counted here. */
  metrics?: Metrics;
  /** This replica's name in lease records; host name and process id by default. */
  replicaId?: string;
}

export function openAlerting(loaded: LoadedConfig, deps: AlertingDeps): Alerting {
  const logger = deps.logger.child({ component: "alerts" });
  const m = deps.metrics;
  const store = deps.store;
  const sc = loaded.config.store;
  const replicated = sc.kind === "redis";
  const replicaId = deps.replicaId ?? `${hostname()}/${process.pid}`;
  let engine: AlertEngine | undefined;
  const running = (): AlertEngine => {
    if (engine) return engine;
    throw new UserFacingError(
      "ALERTS_NOT_RUNNING",
      "Alert notifications are starting; try again in a moment.",
    );
  };
  const commands: AlertCommandPort = {
    routesFor: (channel) => running().commands.routesFor(channel),
    postedIn: (array, name) => running().commands.postedIn(array, name),
    postTest: (channel, by) => running().commands.postTest(channel, by),
    alertsSince: (array, since) => running().commands.alertsSince(array, since),
  };

  return {
    ...(replicated ? { shared: { store, health: () => storeHealth(store) } } : {}),
    commands,
    attach({ chat, pool, identity, pipeline }) {
      if (engine) return engine;
      const access = createAccessResolver(loaded.config.access, identity);
      const authorizer: AlertAuthorizer = {
        async allowed(actor, array, role) {
          const tags = loaded.arrays.find((a) => a.name === array)?.tags ?? [];
          return roleAtLeast(await access.roleOn(actor.userId, { name: array, tags }), role);
        },
      };
      engine = createAlertEngine({
        config: loaded.config.alerts,
        timeZone: loaded.config.time_zone,
        source: poolAlertSource(pool),
        chat,
        store,
        authorizer,
        followUps: { run: (text, actor) => pipeline.handleCommand({ text, actor }) },
        logger,
        ...(deps.clock ? { clock: deps.clock } : {}),
        ...(sc.kind === "redis"
          ? {
              leases: {
                owner: replicaId,
                ttlMs: sc.lease_ttl,
                onChange: (_array: string, change: string) => m?.leaseChanges.inc({ lease: "poll", change }),
              },
            }
          : {}),
      });
      if (loaded.config.alerts.enabled) {
        engine.start();
        logger.info({ arrays: pool.list().length }, "alert polling started");
      }
      return engine;
    },
    async stop() {
      await engine?.stop();
    },
  };
}
