/**
 * The one composition root. `compose(config, faces)` opens the parts in order — store (and, for a data file,
 * its one-process lease) → array pool → command registry → pipeline → alerting — and hands the face that runs
 * them (Slack, the console) finished parts; the face runs the pipeline's start-up recovery once it can post. Faces bring only what is theirs: identity,
 * the audit sink, a chat port for alert cards, and an array-call listener for metrics.
 */
import { RESOURCES } from "../commands/index.js";
import type { AlertEngine } from "./alerts/engine.js";
import { openAlerting, storeOptions } from "./alerts/start.js";
import type { AlertChat, Clock } from "./alerts/types.js";
import type { LoadedConfig } from "./config/load.js";
import type { AuditSink } from "./core/audit.js";
import type { PendingStore } from "./core/pending-store.js";
import { createPipeline } from "./core/pipeline.js";
import type { IdentityPort, Pipeline } from "./core/pipeline-types.js";
import { createRegistry, type Registry } from "./core/registry.js";
import { createArrayPool } from "./flashblade/pool.js";
import type { ArrayCallEvent, ArrayPool } from "./flashblade/types.js";
import type { Logger } from "./logger.js";
import type { Metrics } from "./ops/metrics.js";
import { type DataFileLease, holdDataFile } from "./store/data-file.js";
import { openStore, storeHealth } from "./store/index.js";
import { createStorePendingStore } from "./store/pending-store.js";
import type { Store, StoreOptions } from "./store/types.js";

export interface Faces {
  logger: Logger;
  identity: IdentityPort;
  audit: AuditSink;
  /** Where alert cards go; without it alerting does not run (the console). */
  chat?: AlertChat;
  /** Hears every completed array call (Slack mode records them as metrics). */
  onArrayCall?: (event: ArrayCallEvent) => void;
  /** Overrides the configured store (the console keeps approvals in memory until it honours `store:`). */
  store?: StoreOptions;
  now?: () => number;
  /** Store errors, store up/down and lease changes are counted here (Slack mode). */
  metrics?: Metrics;
  /** This replica's name in lease records (tests running several replicas in one process). */
  replicaId?: string;
  /** The alert engine's clock (tests drive replicas with a manual one). */
  clock?: Clock;
}

export interface Composed {
  store: Store;
  pending: PendingStore;
  pool: ArrayPool;
  registry: Registry;
  pipeline: Pipeline;
  /** The alert engine's click route for "alert.…" buttons; absent without a chat port. */
  alertClicks?: AlertEngine;
  /** Set when replicas share the store (Redis): Slack retries are de-duplicated there and /readyz watches it. */
  shared?: { store: Store; health: () => { up: boolean; detail: string } };
  /** Stops alerting, gives up the data file, closes the store and logs out of the arrays. */
  close(): Promise<void>;
}

/** Opens everything in order; a part that fails to open closes the ones opened before it. */
export async function compose(loaded: LoadedConfig, faces: Faces): Promise<Composed> {
  const now = faces.now ?? Date.now;
  const logger = faces.logger;
  const options = faces.store ?? storeOptions(loaded);
  const m = faces.metrics;
  const storeLog = logger.child({ component: "store" });
  const store = openStore(options, now, {
    error: (op) => m?.storeErrors.inc({ op }),
    state: (up, detail) => {
      m?.storeUp.set(up ? 1 : 0);
      if (up) storeLog.info("shared store reachable: approvals and alert posts resume");
      else storeLog.error({ detail }, "shared store unreachable: approvals and alert posts pause");
    },
  });
  // A Redis store reports itself up once connected; the embedded stores are up from the start.
  m?.storeUp.set(options.kind === "redis" ? 0 : 1);
  let lease: DataFileLease | undefined;
  try {
    // One process per data file: two bots on one SQLite file would both poll, post and recover each other's
    // requests. The lease is taken before anything reads the file's pending requests.
    if (options.kind === "sqlite") lease = await holdDataFile(store, { logger, now, path: options.dataDir });
  } catch (err) {
    await store.close();
    throw err;
  }
  const pending = createStorePendingStore(store);
  const pool = createArrayPool(loaded.arrays, {
    logger,
    now,
    ...(faces.onArrayCall ? { onCall: faces.onArrayCall } : {}),
  });
  let registry: Registry;
  try {
    registry = createRegistry(RESOURCES);
  } catch (err) {
    await pool.close();
    await lease?.release();
    await store.close();
    throw err;
  }
  const alerting = faces.chat
    ? openAlerting(loaded, {
        logger,
        store,
        ...(m ? { metrics: m } : {}),
        ...(faces.replicaId ? { replicaId: faces.replicaId } : {}),
        ...(faces.clock ? { clock: faces.clock } : {}),
      })
    : undefined;
  const pipeline = createPipeline({
    registry,
    pool,
    config: loaded.config,
    identity: faces.identity,
    store: pending,
    audit: faces.audit,
    logger,
    now,
    ...(alerting ? { alerts: alerting.commands } : {}),
    limits: loaded.config.limits,
    ...(m ? { onLimited: (reason: "rate" | "concurrency" | "budget") => m.rateLimited.inc({ reason }) } : {}),
  });
  const alertClicks = faces.chat
    ? alerting?.attach({ chat: faces.chat, pool, identity: faces.identity, pipeline })
    : undefined;
  // A lease lost to another process (this one was paused past its expiry) means that process polls now.
  lease?.onLost(() => {
    logger.error("lost the data-file lease to another process; stopping alert polling");
    void alerting?.stop();
  });
  return {
    store,
    pending,
    pool,
    registry,
    pipeline,
    ...(alertClicks ? { alertClicks } : {}),
    ...(options.kind === "redis" ? { shared: { store, health: () => storeHealth(store) } } : {}),
    async close() {
      await alerting?.stop();
      await lease?.release();
      await store.close();
      await pool.close();
    },
  };
}
