/**
 * The bot the secret tests scan: Bolt fed signed requests over HTTP, the real pipeline with a SQLite pending
 * store on disk, one demo array simulated over HTTPS, the fake Slack Web API. bob is an operator, carol a
 * viewer. `everywhere()` gathers every place the bot writes, so a test can prove a secret reached none of them.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RESOURCES } from "../../../commands/index.js";
import { configSchema } from "../../../src/config/schema.js";
import { createDurablePendingStore } from "../../../src/core/approvals/pending-store-durable.js";
import { memoryAuditSink } from "../../../src/core/audit/audit.js";
import { createRegistry } from "../../../src/core/catalogue/registry.js";
import { createPipeline } from "../../../src/core/pipeline/pipeline.js";
import { createArrayPool } from "../../../src/flashblade/pool.js";
import type { ArrayPool } from "../../../src/flashblade/types.js";
import { commandLabeler } from "../../../src/ops/command-label.js";
import { type Simulator, simulatedArrayConfig, startSimulator } from "../../../src/simulator/index.js";
import { openStore } from "../../../src/store/index.js";
import type { Store } from "../../../src/store/types.js";
import { TEST_ARRAY_TUNING } from "../../core/harness.js";
import { type MemoryLogger, memoryLogger } from "../../fakes/memory-logger.js";
import { type Harness, startHarness } from "./harness.js";

export interface SecretBot {
  sim: Simulator;
  h: Harness;
  audit: ReturnType<typeof memoryAuditSink>;
  log: MemoryLogger;
  /** Every place the bot writes, as one string per place (response URL posts included). */
  everywhere(): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

export interface SecretBotOptions {
  /** Admins (alice, dave) besides bob the operator and carol the viewer. */
  admins?: readonly string[];
  /** Where approval requests are also posted. */
  approvalsChannel?: string;
}

export async function startSecretBot(tmpPrefix: string, opts: SecretBotOptions = {}): Promise<SecretBot> {
  const audit = memoryAuditSink();
  const log = memoryLogger("trace");
  const sim = await startSimulator({ arrayName: "lab-1", scenario: "demo" });
  const dataDir = mkdtempSync(join(tmpdir(), tmpPrefix));
  const store: Store = openStore({ kind: "sqlite", dataDir });
  const config = configSchema.parse({
    arrays: [{ name: "lab-1", address: sim.url, api_token_env: "T" }],
    access: {
      default_role: "none",
      ...(opts.admins ? { admin: { users: [...opts.admins], groups: [] } } : {}),
      operator: { users: ["UBOB"], groups: [] },
      viewer: { users: ["UCAROL"], groups: [] },
    },
    channels: { default_array: "lab-1" },
    ...(opts.approvalsChannel ? { destructive: { approvals_channel: opts.approvalsChannel } } : {}),
  });
  const pool: ArrayPool = createArrayPool([simulatedArrayConfig("lab-1", sim, TEST_ARRAY_TUNING)], {
    logger: log.logger,
    sleep: async () => {},
  });
  const registry = createRegistry(RESOURCES);
  const h = await startHarness("http", {
    pipeline: ({ identity }) =>
      createPipeline({
        registry,
        pool,
        config,
        identity,
        store: createDurablePendingStore(store),
        audit,
        logger: log.logger,
        now: Date.now,
      }),
    commandLabel: commandLabeler(registry),
    logger: log.logger,
  });
  return {
    sim,
    h,
    audit,
    log,
    async everywhere() {
      const storeFiles = readdirSync(dataDir)
        .map((f) => readFileSync(join(dataDir, f)).toString("latin1"))
        .join("\n");
      return {
        "Slack Web API calls": JSON.stringify(h.fake.calls),
        "unexpected Slack calls": JSON.stringify(h.fake.unexpected),
        "posted messages": JSON.stringify([...h.fake.messages.values()]),
        "response URL posts": JSON.stringify(h.fake.responses),
        uploads: [...h.fake.uploads.values()].map((b) => b.toString("latin1")).join("\n"),
        "log lines": log.text() + h.log.text(),
        "audit records": JSON.stringify(audit.records),
        "pending store files": storeFiles,
        "/metrics": await (await fetch(`${h.baseUrl}/metrics`)).text(),
      };
    },
    async stop() {
      await h.stop();
      await pool.close();
      await sim.close();
      await store.close?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
