/**
 * The load test's bot as a replica sharing Redis through Sentinel (`npm run load -- --failover`): the parts come
 * from the one composition root (src/compose.ts), as main.ts's Slack mode builds them, so the durable pending
 * store, the Redis health behind /readyz, Slack retry de-duplication, execution leases and the replica-acked
 * writes are the production ones. Only the audit sink is the load's (reconcile.ts) and alerting is off: the load
 * measures commands and approvals.
 */
import { type Composed, compose } from "../../src/compose.js";
import type { ResolvedArrayConfig } from "../../src/config/arrays.js";
import type { LoadedConfig } from "../../src/config/load.js";
import { configSchema } from "../../src/config/schema.js";
import { parseSlackSection } from "../../src/config/slack.js";
import type { AuditSink } from "../../src/core/audit/audit.js";
import { silentLogger } from "../../src/logger.js";
import { createMetrics } from "../../src/ops/metrics.js";
import { createSlackApp, createSlackPorts, type SlackApp } from "../../src/slack/app.js";

export interface SharedStoreOptions {
  /** Sentinel addresses (host:port), as `store.sentinels` lists them. */
  sentinels: readonly string[];
  sentinelName: string;
}

export interface ComposedBotOptions {
  arrays: readonly ResolvedArrayConfig[];
  admins: readonly string[];
  operators: readonly string[];
  signingSecret: string;
  slackApiUrl: string;
  store: SharedStoreOptions;
  /** This replica's name in lease records. */
  replicaId: string;
  audit: AuditSink;
}

export async function startComposedBot(
  o: ComposedBotOptions,
): Promise<{ app: SlackApp; core: Composed; close(): Promise<void> }> {
  const logger = silentLogger();
  const config = configSchema.parse({
    arrays: o.arrays.map((a) => ({ name: a.name, address: a.origin, api_token_env: "T" })),
    access: { default_role: "none", admin: { users: o.admins }, operator: { users: o.operators } },
    store: { kind: "redis", sentinels: [...o.store.sentinels], sentinel_name: o.store.sentinelName },
    alerts: { enabled: false },
  });
  const slack = parseSlackSection({
    mode: "http",
    botToken: "xoxb-load",
    signingSecret: o.signingSecret,
    apiUrl: o.slackApiUrl,
    port: 0,
    channelIntervalMs: 0,
    drainSeconds: 30,
  });
  const loaded: LoadedConfig = { config, arrays: [...o.arrays], slack, source: "load" };
  const metrics = createMetrics({ collectDefault: false });
  const ports = createSlackPorts(slack, { logger, metrics });
  const core = await compose(loaded, {
    logger,
    identity: ports.identity,
    audit: o.audit,
    metrics,
    replicaId: o.replicaId,
  });
  const app = createSlackApp(slack, {
    host: "127.0.0.1",
    logger,
    metrics,
    ports,
    pipeline: core.pipeline,
    ...(core.shared ? { sharedStore: core.shared } : {}),
    storeHealth: core.health,
  });
  return {
    app,
    core,
    async close() {
      await app.stop();
      await core.close();
    },
  };
}
