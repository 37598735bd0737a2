/**
 * The whole bot as hostile-input tests meet it: Bolt's real HTTP receiver fed signed requests, the real
 * pipeline and command registry, one simulated array over HTTPS, the fake Slack Web API, an audit sink that
 * keeps records, and one memory logger for every part (so a test can scan all log lines for secrets).
 */
import { RESOURCES } from "../../../commands/index.js";
import { configSchema } from "../../../src/config/schema.js";
import type { PendingStore } from "../../../src/core/approvals/pending-store.js";
import { createMemoryPendingStore } from "../../../src/core/approvals/pending-store-memory.js";
import { type AuditRecord, memoryAuditSink } from "../../../src/core/audit/audit.js";
import { createRegistry } from "../../../src/core/catalogue/registry.js";
import { createPipeline } from "../../../src/core/pipeline/pipeline.js";
import { createArrayPool } from "../../../src/flashblade/pool.js";
import type { ArrayPool } from "../../../src/flashblade/types.js";
import { commandLabeler } from "../../../src/ops/command-label.js";
import { type Simulator, simulatedArrayConfig, startSimulator } from "../../../src/simulator/index.js";
import { createAuditChannelSink } from "../../../src/slack/audit-channel.js";
import { TEST_ARRAY_TUNING } from "../../core/harness.js";
import { type MemoryLogger, memoryLogger } from "../../fakes/memory-logger.js";
import { slashCommand } from "../../fakes/payloads.js";
import { type Harness, startHarness } from "../../slack/helpers/harness.js";

/** Slack user ids by role; UMALLORY is mapped to nothing. */
export const USERS = {
  admin: "UALICE",
  admin2: "UDAVE",
  operator: "UBOB",
  viewer: "UCAROL",
  unmapped: "UMALLORY",
} as const;

export interface BotWorld {
  sim: Simulator;
  pool: ArrayPool;
  slack: Harness;
  store: PendingStore;
  audits: AuditRecord[];
  log: MemoryLogger;
  /** Requests that could change the array (anything but GET, login and logout), by `METHOD /path`. */
  mutations(): number;
  /** Runs `/array text` as `userId` over signed HTTP and resolves with the response_url answer's body. */
  command(
    text: string,
    userId: string,
    opts?: { triggerId?: string; userName?: string },
  ): Promise<Record<string, unknown>>;
  nextResponseUrl(): string;
  close(): Promise<void>;
}

export interface BotWorldOptions {
  scenario?: "demo" | "empty";
  /** Post every audit record to this channel too, as `audit_channel` does in production. */
  auditChannel?: string;
}

export async function startBotWorld(opts: BotWorldOptions = {}): Promise<BotWorld> {
  const log = memoryLogger();
  const sim = await startSimulator({ arrayName: "lab-1", scenario: opts.scenario ?? "demo" });
  const pool = createArrayPool([simulatedArrayConfig("lab-1", sim, TEST_ARRAY_TUNING)], {
    logger: log.logger,
    sleep: async () => {},
  });
  const config = configSchema.parse({
    arrays: [{ name: "lab-1", address: sim.url, api_token_env: "T" }],
    access: {
      default_role: "none",
      admin: { users: [USERS.admin, USERS.admin2], groups: [] },
      operator: { users: [USERS.operator], groups: [] },
      viewer: { users: [USERS.viewer], groups: [] },
    },
    channels: { default_array: "lab-1" },
  });
  const registry = createRegistry(RESOURCES);
  const store = createMemoryPendingStore();
  const sink = memoryAuditSink();
  const slack = await startHarness("http", {
    logger: log.logger,
    pipeline: ({ identity, chat }) => {
      const channel = opts.auditChannel;
      const toChannel =
        channel === undefined
          ? undefined
          : createAuditChannelSink({ channelId: channel, chat, logger: log.logger });
      return createPipeline({
        registry,
        pool,
        config,
        identity,
        store,
        audit: {
          write: async (r) => {
            await sink.write(r);
            await toChannel?.write(r);
          },
        },
        logger: log.logger,
        now: Date.now,
      });
    },
    commandLabel: commandLabeler(registry),
  });
  let seq = 0;
  const nextResponseUrl = () => slack.fake.responseUrl(`w-${++seq}`);
  return {
    sim,
    pool,
    slack,
    store,
    audits: sink.records,
    log,
    mutations: () =>
      Object.entries(sim.control.stats().requests)
        .filter(([k]) => !k.startsWith("GET ") && !/\/api\/(login|logout)$/.test(k))
        .reduce((n, [, c]) => n + c, 0),
    nextResponseUrl,
    async command(text, userId, o = {}) {
      const url = nextResponseUrl();
      const ack = await slack.driver.command(
        slashCommand({ text, userId, userName: userId.toLowerCase(), responseUrl: url, ...o }),
      );
      if (ack.status !== 200) throw new Error(`the command was not acknowledged: ${ack.status}`);
      return (await slack.fake.waitForResponse((r) => url.endsWith(`/${r.id}`))).body;
    },
    async close() {
      await slack.stop();
      await pool.close();
      await sim.close();
    },
  };
}
