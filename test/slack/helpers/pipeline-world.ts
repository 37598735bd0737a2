/**
 * A Slack app (Bolt's real HTTP receiver, the fake Web API) in front of the real pipeline over one demo simulator
 * `lab-1`: viewers by default, the given operators, a memory pending store the test can read.
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
import { type Logger, silentLogger } from "../../../src/logger.js";
import { type Simulator, simulatedArrayConfig, startSimulator } from "../../../src/simulator/index.js";
import type { SlackAppDeps } from "../../../src/slack/app.js";
import { TEST_ARRAY_TUNING } from "../../core/harness.js";
import { type Harness, startHarness } from "./harness.js";

export interface PipelineWorld {
  h: Harness;
  /** lab-1's simulator. */
  sim: Simulator;
  /** Every array's simulator, by name (lab-1, then the `more` ones). */
  sims: Map<string, Simulator>;
  pool: ArrayPool;
  store: PendingStore;
  /** Every audit record the pipeline wrote. */
  audits: AuditRecord[];
  close(): Promise<void>;
}

/** Slack app parts a test adds (App Home, a clock), built from the world's config and pool. */
export type WorldSlackDeps = (parts: {
  config: ReturnType<typeof configSchema.parse>;
  pool: ArrayPool;
  store: PendingStore;
}) => Partial<Omit<SlackAppDeps, "pipeline" | "logger">>;

/** `extra`: more configuration sections (workflow_steps, mcp, destructive…), merged over the world's own. */
export async function startPipelineWorld(
  operators: readonly string[],
  slack?: WorldSlackDeps,
  extra: Record<string, unknown> = {},
  /** Where the pipeline and the array pool log (silent by default): a test that reads log lines passes its own. */
  logger: Logger = silentLogger(),
  /** More demo arrays beside lab-1 (`--array all` then covers them too). */
  more: readonly string[] = [],
  /** REST versions an array serves where a test pins them (a 2.x-only family's forms): by array name. */
  versions: Readonly<Record<string, string>> = {},
): Promise<PipelineWorld> {
  const sims = new Map<string, Simulator>();
  for (const name of ["lab-1", ...more]) {
    const pinned = versions[name];
    sims.set(
      name,
      await startSimulator({ arrayName: name, scenario: "demo", ...(pinned ? { versions: pinned } : {}) }),
    );
  }
  const sim = sims.get("lab-1") as Simulator;
  const pool = createArrayPool(
    [...sims].map(([name, s]) => simulatedArrayConfig(name, s, TEST_ARRAY_TUNING)),
    { logger },
  );
  const store = createMemoryPendingStore();
  const config = configSchema.parse({
    arrays: [...sims].map(([name, s]) => ({ name, address: s.url, api_token_env: "T" })),
    access: { default_role: "viewer", operator: { users: [...operators] } },
    channels: { default_array: "lab-1" },
    ...extra,
  });
  const registry = createRegistry(RESOURCES);
  const audit = memoryAuditSink();
  const h = await startHarness("http", {
    ...slack?.({ config, pool, store }),
    pipeline: ({ identity }) =>
      createPipeline({
        registry,
        pool,
        config,
        identity,
        store,
        audit,
        logger,
        now: Date.now,
        // Limits only where a test sets them: most worlds send many commands from one person at once.
        ...("limits" in extra ? { limits: config.limits } : {}),
      }),
  });
  return {
    h,
    sim,
    sims,
    pool,
    store,
    audits: audit.records,
    async close() {
      await h.stop();
      await pool.close();
      for (const s of sims.values()) await s.close();
    },
  };
}
