/**
 * The Slack branch of the process: runs the Slack app around finished parts from the composition root
 * (src/compose.ts), wires App Home, metrics and the alert engine's buttons, starts it, and shuts down gracefully
 * on SIGTERM/SIGINT (stop taking commands, finish in-flight work, then close the parts). Resolves with the exit
 * code once stopped.
 */

import type { LoadedConfig } from "../config/load.js";
import { createAccessResolver } from "../core/access/authz.js";
import type { PendingStore } from "../core/approvals/pending-store.js";
import type { Registry } from "../core/catalogue/registry.js";
import type { Pipeline } from "../core/context/pipeline-types.js";
import { UserFacingError } from "../errors.js";
import type { ArrayPool } from "../flashblade/types.js";
import type { Logger } from "../logger.js";
import { commandLabeler } from "../ops/command-label.js";
import type { Metrics } from "../ops/metrics.js";
import { arrayHealthFrom } from "../ops/readiness.js";
import { onShutdownSignals, type SignalTarget } from "../ops/shutdown.js";
import { type ClickRoute, createSlackApp, type SlackAppDeps, type SlackPorts } from "./app.js";
import { type AuditChannelSink, createAuditChannelSink } from "./audit-channel.js";
import { createChatPort } from "./chat-port.js";
import { createHomePort } from "./home-data.js";

/** What the composition root hands the Slack face. */
export interface CoreParts {
  pipeline: Pipeline;
  pool: ArrayPool;
  registry: Registry;
  pending: PendingStore;
  /** The alert engine's buttons. */
  clickRoutes: readonly ClickRoute[];
  /** Stops alerting, releases the data file, closes the store and logs out of the arrays. */
  close(): Promise<void>;
  /** Whether the store takes writes now (a full SQLite data volume does not): /readyz reports it. */
  health?: () => { up: boolean; detail: string };
  /** The changes being carried out now: named in the log when the shutdown's deadline cuts them off. */
  executing?: () => readonly { id: string; about: Readonly<Record<string, unknown>> }[];
}

export interface RunSlackDeps {
  logger: Logger;
  metrics: Metrics;
  /** Built before the core (`createSlackPorts`), which took their identity and chat port. */
  ports: SlackPorts;
  parts: CoreParts;
  /** Runs once Slack is connected. */
  onStarted?: (ports: SlackPorts, parts: CoreParts) => Promise<void> | void;
  /** Extra shutdown work after Slack stops, before the parts close. */
  onStop?: () => Promise<void>;
  /** Shutdown work once in-flight commands are done, while the Slack clients still work. */
  afterDrain?: () => Promise<void>;
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

/** Change control's user groups by where the configuration names them (rules' approvers and vetoes, break-glass). */
function changeControlGroups(config: LoadedConfig["config"]): [string, string][] {
  const out: [string, string][] = [];
  config.approvals.rules.forEach((r, i) => {
    for (const g of r.approvers?.groups ?? []) out.push([`approvals.rules[${i}].approvers`, g]);
    for (const g of r.veto?.groups ?? []) out.push([`approvals.rules[${i}].veto`, g]);
    for (const g of r.match.groups ?? []) out.push([`approvals.rules[${i}].match.groups`, g]);
  });
  for (const g of config.break_glass.groups) out.push(["break_glass", g]);
  config.access_requests.rules.forEach((r, i) => {
    for (const g of r.approvers.groups) out.push([`access_requests.rules[${i}].approvers`, g]);
  });
  return out;
}

/** Every user group whose members the bot must know: the access mapping's and change control's. */
export function identityGroupIds(config: LoadedConfig["config"]): string[] {
  return [...new Set([...accessGroupIds(config.access), ...changeControlGroups(config).map(([, g]) => g)])];
}

/**
 * A rule that names a user group nobody is in can never be satisfied (or vetoed): a start-up error, naming the
 * setting. A group Slack does not let the bot read is logged and left to the rule's other members.
 */
export async function assertRuleGroupsPopulated(
  config: LoadedConfig["config"],
  identity: { membersOf(groupId: string): Promise<readonly string[] | undefined> },
): Promise<void> {
  for (const [where, group] of changeControlGroups(config)) {
    const members = await identity.membersOf(group);
    if (members !== undefined && members.length === 0)
      throw new UserFacingError(
        "CONFIG_INVALID",
        `${where}: the user group ${group} has nobody in it, so the rule can never be met; add people to it or name others.`,
      );
  }
}

/** The audit sink of the Slack face: every record also posted to the audit channel, when one is configured. */
export function slackAuditSink(loaded: LoadedConfig, ports: SlackPorts, logger: Logger): AuditChannelSink {
  if (loaded.config.audit_channel === undefined) return { write: () => {}, flush: async () => {} };
  return createAuditChannelSink({
    channelId: loaded.config.audit_channel,
    // Its own chat port so audit lines are not counted as alert posts.
    chat: createChatPort({ client: ports.client, uploader: ports.uploader, logger }),
    logger,
  });
}

/**
 * How a stop spends `shutdown_grace`: the forced exit comes early enough that the last log lines and the exit
 * itself fit inside the grace (the orchestrator's SIGKILL comes after it); in-flight work may use what is left
 * once the later steps (audit lines, logging out of the arrays) have their share.
 */
export function shutdownBudget(graceMs: number): {
  deadlineMs: number;
  drainMs: number;
  recordMs: number;
  flushMs: number;
} {
  const reserve = Math.min(2_000, graceMs * 0.2);
  const deadlineMs = Math.max(0, graceMs - reserve);
  return {
    deadlineMs,
    drainMs: Math.max(0, deadlineMs - Math.min(5_000, deadlineMs * 0.3)),
    recordMs: reserve / 4,
    // The last log lines into a slow stdout: after the deadline and its record, still inside the grace.
    flushMs: reserve / 4,
  };
}

/**
 * The work the deadline cut off, one error line each with its execution record. Nothing is written to the store
 * here (it may be what hangs): the execution's lease lapses, and the next start or any replica's sweep ends it
 * "interrupted", reading the array back for its card (src/core/approvals/recovery.ts).
 */
function logCutOff(
  logger: Logger,
  running: readonly { id: string; about: Readonly<Record<string, unknown>> }[],
) {
  for (const e of running)
    logger.error(
      { pendingId: e.id, execution: e.about },
      "change cut off by shutdown: left to be ended as interrupted when its lease lapses",
    );
}

export async function runSlack(loaded: LoadedConfig, deps: RunSlackDeps): Promise<number> {
  const slack = loaded.slack;
  if (slack === undefined) throw new Error("runSlack needs a slack configuration");
  const { logger, parts, ports } = deps;
  const health = () => parts.pool.health();
  await assertRuleGroupsPopulated(loaded.config, ports.identity);

  const app = createSlackApp(slack, {
    logger,
    metrics: deps.metrics,
    ports,
    pipeline: parts.pipeline,
    home: createHomePort({
      access: createAccessResolver(loaded.config.access, ports.identity),
      arrays: health,
      pending: parts.pending,
      commands: () => parts.registry.all(),
      // One array that does not answer within the fan-out deadline is a line saying so, not a blank page.
      fleet: {
        clientFor: (name) => parts.pool.get(name),
        options: { now: Date.now, deadlineMs: loaded.config.fan_out_deadline ?? 5_000 },
      },
    }),
    clickRoutes: parts.clickRoutes,
    arrays: arrayHealthFrom(health),
    ...(deps.sharedStore ? { sharedStore: deps.sharedStore } : {}),
    ...(parts.health ? { storeHealth: parts.health } : {}),
    groupIds: identityGroupIds(loaded.config),
    commandLabel: commandLabeler(parts.registry),
    ...(deps.afterDrain ? { afterDrain: deps.afterDrain } : {}),
  });

  await app.start();
  await deps.onStarted?.(ports, parts);
  return new Promise<number>((resolve) => {
    const target: SignalTarget = {
      once: (signal, fn) => (deps.signals ?? process).once(signal, fn),
      exit: (code) => resolve(code),
    };
    const budget = shutdownBudget(loaded.config.shutdown_grace);
    onShutdownSignals(
      target,
      [
        {
          name: "stop taking commands and finish in-flight work",
          run: () => app.stop({ drainMs: budget.drainMs }),
        },
        { name: "stop other parts", run: () => deps.onStop?.() ?? Promise.resolve() },
        { name: "stop alerting, close the store, log out of arrays", run: () => parts.close() },
      ],
      logger,
      {
        ms: budget.deadlineMs,
        boundMs: budget.recordMs,
        onDeadline: () => logCutOff(logger, parts.executing?.() ?? []),
      },
    );
  });
}
