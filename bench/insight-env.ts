/**
 * Simulated arrays for the insight commands (diagnose, space forecast, space trash), in process, behind the
 * real pipeline: used by `npm run bench:insight` and `npm run docs:charts`. The simulator's clock is fixed so
 * the generated charts and transcripts come out the same on every run.
 */
import { RESOURCES } from "../commands/index.js";
import { configSchema } from "../src/config/schema.js";
import { createMemoryPendingStore } from "../src/core/approvals/pending-store-memory.js";
import { memoryAuditSink } from "../src/core/audit/audit.js";
import { createRegistry } from "../src/core/catalogue/registry.js";
import { createPipeline } from "../src/core/pipeline/pipeline.js";
import type { Message } from "../src/core/presentation/message.js";
import { createArrayPool } from "../src/flashblade/pool.js";
import type { ArrayPool } from "../src/flashblade/types.js";
import { silentLogger } from "../src/logger.js";
import { type Simulator, simulatedArrayConfig, startSimulator } from "../src/simulator/index.js";
import type { ScenarioName } from "../src/simulator/state.js";

/** 2026-11-23 14:00 UTC: a weekday afternoon, when the daily swing is up. */
export const FIXED_NOW = Date.UTC(2026, 10, 23, 14, 0, 0);

export interface InsightEnv {
  sims: Map<string, Simulator>;
  pool: ArrayPool;
  run(text: string, user?: string): Promise<Message[]>;
  close(): Promise<void>;
}

export async function startInsightEnv(
  arrays: { name: string; scenario: ScenarioName }[],
): Promise<InsightEnv> {
  const sims = new Map<string, Simulator>();
  for (const a of arrays) {
    sims.set(
      a.name,
      await startSimulator({ arrayName: a.name, scenario: a.scenario, clock: () => FIXED_NOW }),
    );
  }
  const configs = arrays.map((a) => simulatedArrayConfig(a.name, sims.get(a.name) as Simulator));
  const pool = createArrayPool(configs, { logger: silentLogger() });
  const config = configSchema.parse({
    arrays: arrays.map((a) => ({ name: a.name, address: sims.get(a.name)?.url, api_token_env: "X" })),
    access: { admin: { users: ["alice"] }, viewer: { users: ["carol"] } },
  });
  const pipeline = createPipeline({
    registry: createRegistry(RESOURCES),
    pool,
    config,
    identity: { groupsOf: async () => [], isRestricted: async () => false },
    store: createMemoryPendingStore(),
    audit: memoryAuditSink(),
    logger: silentLogger(),
    now: () => FIXED_NOW,
  });
  return {
    sims,
    pool,
    async run(text, user = "carol") {
      const effects = await pipeline.handleCommand({
        text,
        actor: { kind: "console" as const, userId: user, channelId: "C1" },
      });
      return effects.flatMap((e) => (e.kind === "reply" || e.kind === "post" ? [e.message] : []));
    },
    async close() {
      await pool.close();
      for (const s of sims.values()) await s.close();
    },
  };
}
