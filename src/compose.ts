/**
 * The one composition root. `compose(config, faces)` opens the parts in order — store (a data file is locked
 * to this process as it opens: src/store/data-file.ts) → array pool → command registry → pipeline → alerting — and hands the face that runs
 * them (Slack, the console) finished parts; the face runs the pipeline's start-up recovery once it can post. Faces bring only what is theirs: identity,
 * the audit sink, a chat port for alert cards, and an array-call listener for metrics.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { checkSpecs } from "../commands/catalogue/generic/derive.js";
import { CATALOGUE } from "../commands/catalogue/index.js";
import type { NounSpec } from "../commands/catalogue/spec.js";
import { RESOURCES } from "../commands/index.js";
import type { AlertEngine } from "./alerts/engine.js";
import { openAlerting, storeOptions } from "./alerts/start.js";
import type { AlertChat, Clock } from "./alerts/types.js";
import { type AuditExport, openAuditExport } from "./audit-export/index.js";
import type { LoadedConfig } from "./config/load.js";
import type { PendingStore } from "./core/approvals/pending-store.js";
import { createDurablePendingStore } from "./core/approvals/pending-store-durable.js";
import type { AuditSink } from "./core/audit/audit.js";
import { createAuditChain } from "./core/audit/audit-chain.js";
import { createAuditHistory } from "./core/audit/audit-history.js";
import { createRegistry, type Registry } from "./core/catalogue/registry.js";
import type { IdentityPort, Pipeline } from "./core/context/pipeline-types.js";
import { createPipeline } from "./core/pipeline/pipeline.js";
import { raceTimeout } from "./core/requests/slow-array.js";
import { InternalError } from "./errors.js";
import { createArrayPool } from "./flashblade/pool.js";
import type { ArrayCallEvent, ArrayPool } from "./flashblade/types.js";
import type { Logger } from "./logger.js";
import type { Metrics } from "./ops/metrics.js";
import { storeFullError } from "./store/disk-full.js";
import { createExecutionLeases } from "./store/execution-lease.js";
import { openStore, storeHealth } from "./store/index.js";
import { storeUnavailableError } from "./store/redis-connection.js";
import type { Store, StoreOptions } from "./store/types.js";

/** How long closing waits for audit records still queued for export. */
const AUDIT_EXPORT_FLUSH_MS = 3_000;

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
  /** The catalogue checked against the endpoint table at start-up: the shipped one unless a test breaks it. */
  catalogue?: readonly NounSpec[];
}

export interface Composed {
  store: Store;
  pending: PendingStore;
  pool: ArrayPool;
  /**
   * Settles once every array has been asked at start-up whether it answers and takes the token, so health
   * (/healthz, /readyz, /array arrays, the up gauge) is known at once, not after the first command or poll.
   */
  arraysChecked: Promise<void>;
  registry: Registry;
  pipeline: Pipeline;
  /** The alert engine's click route for "alert.…" buttons; absent without a chat port. */
  alertClicks?: AlertEngine;
  /** Whether the store takes writes now (Redis reachable, the data volume not full): /readyz and changes check it. */
  health: () => { up: boolean; detail: string };
  /** Set when replicas share the store (Redis): Slack retries are de-duplicated there and /readyz watches it. */
  shared?: { store: Store; health: () => { up: boolean; detail: string } };
  /** The changes this process is carrying out now (from memory): what a stop cut off by its deadline names. */
  executing(): { id: string; about: Readonly<Record<string, unknown>> }[];
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
      if (options.kind === "sqlite") {
        if (up) storeLog.info("data volume has room again: changes and approvals resume");
        else
          storeLog.error(
            { detail },
            "data volume full: changes and approvals are refused until space is freed",
          );
      } else if (up) storeLog.info("shared store reachable: approvals and alert posts resume");
      else storeLog.error({ detail }, "shared store unreachable: approvals and alert posts pause");
    },
  });
  // A Redis store reports itself up once connected; the embedded stores are up from the start.
  m?.storeUp.set(options.kind === "redis" ? 0 : 1);
  const pending = createDurablePendingStore(store);
  const poolCfg = loaded.config.array_pool;
  const pool = createArrayPool(loaded.arrays, {
    logger,
    now,
    maxSockets: poolCfg.max_sockets,
    idleSocketMs: poolCfg.idle_socket,
    idleSessionMs: poolCfg.idle_session,
    checkConcurrency: poolCfg.checks_at_once,
    sweepIdle: true,
    ...(faces.onArrayCall ? { onCall: faces.onArrayCall } : {}),
  });
  let registry: Registry;
  try {
    // A catalogue entry naming a path or selector the endpoint table lacks would fail only when someone types it.
    const problems = checkSpecs(faces.catalogue ?? CATALOGUE);
    if (problems.length > 0)
      throw new InternalError(
        "CATALOGUE_INVALID",
        `the command catalogue does not match the endpoint table: ${problems.join("; ")}`,
      );
    registry = createRegistry(RESOURCES);
  } catch (err) {
    await pool.close();
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
  // Each execution is leased to this process instance, so a replica starting meanwhile leaves it alone.
  const sc = loaded.config.store;
  const executions = createExecutionLeases(store, {
    owner: faces.replicaId ?? `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`,
    ttlMs: sc.kind === "redis" ? sc.lease_ttl : 15_000,
    exclusive: options.kind !== "redis",
    now,
    onRenewError: (id, err) => logger.warn({ err, pendingId: id }, "could not renew an execution lease"),
  });
  // One hash chain per store (every replica appends to it); this replica exports what it appends, in order.
  const exportCfg = loaded.config.audit_export;
  let auditExport: AuditExport | undefined;
  try {
    auditExport =
      exportCfg &&
      openAuditExport(exportCfg, {
        logger,
        ...(m ? { onDropped: (target: string, n: number) => m.auditExportDropped.inc({ target }, n) } : {}),
        resolvePath: (p) => (isAbsolute(p) ? p : join(dirname(loaded.source), p)),
      });
  } catch (err) {
    await alerting?.stop();
    await pool.close();
    await store.close();
    throw err;
  }
  const auditChain = createAuditChain(store, auditExport ? { onPlaced: (r) => auditExport.enqueue(r) } : {});
  const pipeline = createPipeline({
    auditChain,
    executions,
    registry,
    pool,
    config: loaded.config,
    identity: faces.identity,
    store: pending,
    audit: faces.audit,
    history: createAuditHistory(store, loaded.config.audit_history),
    logger,
    now,
    ...(alerting ? { alerts: alerting.commands } : {}),
    limits: loaded.config.limits,
    // A change the store cannot record (a full data volume, no writable Redis primary) is refused before it starts.
    assertStoreWritable: () => {
      if (storeHealth(store).up) return;
      throw options.kind === "sqlite" ? storeFullError() : storeUnavailableError();
    },
    ...(m ? { onLimited: (reason: "rate" | "concurrency" | "budget") => m.rateLimited.inc({ reason }) } : {}),
  });
  const alertClicks = faces.chat
    ? alerting?.attach({ chat: faces.chat, pool, identity: faces.identity, pipeline })
    : undefined;
  // Not awaited: a start-up must not wait on an array that does not answer; what each says lands in its health.
  const arraysChecked = pool.checkAll();
  return {
    store,
    pending,
    pool,
    arraysChecked,
    registry,
    pipeline,
    ...(alertClicks ? { alertClicks } : {}),
    ...(options.kind === "redis" ? { shared: { store, health: () => storeHealth(store) } } : {}),
    executing: () => executions.holding(),
    health: () => storeHealth(store),
    async close() {
      await alerting?.stop();
      // Records still queued get a few seconds to go out; close() drops (and logs) what a dead collector left.
      if (auditExport) await raceTimeout(AUDIT_EXPORT_FLUSH_MS, auditExport.flush());
      await auditExport?.close();
      await store.close();
      await pool.close();
    },
  };
}
