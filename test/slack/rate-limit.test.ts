/**
 * The per-person limit as Slack meets it (issue 22 point 6): signed slash commands to Bolt's HTTP receiver,
 * a burst from one person answered "slow down" past the burst, another person answered as usual, and each
 * refusal counted in array_chatops_rate_limited_total by reason only (never by user).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { configSchema } from "../../src/config/schema.js";
import { createMemoryPendingStore } from "../../src/core/approvals/pending-store-memory.js";
import { memoryAuditSink } from "../../src/core/audit/audit.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { createPipeline } from "../../src/core/pipeline/pipeline.js";
import { createArrayPool } from "../../src/flashblade/pool.js";
import type { ArrayPool } from "../../src/flashblade/types.js";
import { silentLogger } from "../../src/logger.js";
import { createMetrics, type Metrics } from "../../src/ops/metrics.js";
import { type Simulator, simulatedArrayConfig, startSimulator } from "../../src/simulator/index.js";
import { TEST_ARRAY_TUNING } from "../core/harness.js";
import { slashCommand } from "../fakes/payloads.js";
import { type Harness, startHarness } from "./helpers/harness.js";

const BURST = 5;

describe("a burst of slash commands from one person", () => {
  let sim: Simulator;
  let pool: ArrayPool;
  let slack: Harness;
  let metrics: Metrics;
  const clock = { now: Date.UTC(2026, 10, 22, 12) };
  let seq = 0;

  beforeAll(async () => {
    sim = await startSimulator({ arrayName: "lab-1", scenario: "demo" });
    pool = createArrayPool([simulatedArrayConfig("lab-1", sim, TEST_ARRAY_TUNING)], {
      logger: silentLogger(),
      sleep: async () => {},
    });
    const config = configSchema.parse({
      arrays: [{ name: "lab-1", address: sim.url, api_token_env: "T" }],
      access: { default_role: "viewer" },
      channels: { default_array: "lab-1" },
      limits: { burst: BURST, per_minute: 6, concurrent: 3 },
    });
    metrics = createMetrics({ collectDefault: false });
    slack = await startHarness("http", {
      metrics,
      pipeline: ({ identity }) =>
        createPipeline({
          registry: createRegistry(RESOURCES),
          pool,
          config,
          identity,
          store: createMemoryPendingStore(),
          audit: memoryAuditSink(),
          logger: silentLogger(),
          now: () => clock.now,
          limits: config.limits,
          onLimited: (reason) => metrics.rateLimited.inc({ reason }),
        }),
    });
  });
  afterAll(async () => {
    await slack?.stop();
    await pool?.close();
    await sim?.close();
  });

  const command = async (text: string, userId: string): Promise<string> => {
    const url = slack.fake.responseUrl(`rl-${++seq}`);
    const ack = await slack.driver.command(
      slashCommand({ text, userId, userName: userId, responseUrl: url }),
    );
    expect(ack.status).toBe(200);
    return JSON.stringify((await slack.fake.waitForResponse((r) => url.endsWith(`/${r.id}`))).body);
  };

  test("most are told to slow down, someone else is answered, and the refusals are counted", async () => {
    const burst = Array.from({ length: 30 }, () => command("fs list", "UFLOOD"));
    const other = command("fs list", "UCALM");
    const answers = await Promise.all(burst);
    const refused = answers.filter((a) => a.includes("Slow down"));
    expect(refused.length).toBeGreaterThanOrEqual(30 - BURST);
    expect(answers.length - refused.length).toBeLessThanOrEqual(BURST);
    for (const a of refused) expect(a).toMatch(/try again (in \d+ s|when one of them has answered)/);
    const calm = await other;
    expect(calm).not.toContain("Slow down");
    expect(calm).toContain("file systems on array lab-1");

    const scraped = await metrics.registry.getSingleMetricAsString("array_chatops_rate_limited_total");
    const counted = [...scraped.matchAll(/^array_chatops_rate_limited_total\{reason="(\w+)"\} (\d+)$/gm)];
    expect(counted.reduce((n, m) => n + Number(m[2]), 0)).toBe(refused.length);
    expect(scraped).not.toContain("UFLOOD");
  });
});
