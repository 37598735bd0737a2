/**
 * Charts Slack draws itself (issue 46): forecast, performance and diagnose answers through Bolt's real HTTP
 * receiver, the real pipeline over a simulated array, to the fake Slack Web API, which refuses blocks Slack would
 * refuse (test/fakes/chart-rules.ts). Each answer carries valid data_visualization blocks (at most two), each
 * followed by its summary in words, and uploads no PNG; the PNG for a workspace without the block is
 * perf-chart.test.ts, and for surfaces without it chart-fallback.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { configSchema } from "../../src/config/schema.js";
import { createMemoryPendingStore } from "../../src/core/approvals/pending-store-memory.js";
import { memoryAuditSink } from "../../src/core/audit/audit.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { createPipeline } from "../../src/core/pipeline/pipeline.js";
import { createArrayPool } from "../../src/flashblade/pool.js";
import type { ArrayPool } from "../../src/flashblade/types.js";
import { silentLogger } from "../../src/logger.js";
import { type Simulator, simulatedArrayConfig, startSimulator } from "../../src/simulator/index.js";
import { TEST_ARRAY_TUNING } from "../core/harness.js";
import { blockKitViolations } from "../fakes/block-kit-rules.js";
import { slashCommand } from "../fakes/payloads.js";
import { type Harness, startHarness } from "./helpers/harness.js";

type Block = { type: string; title?: string; chart?: { series: unknown[] }; elements?: { text?: string }[] };

describe("charts Slack draws", () => {
  let sim: Simulator;
  let pool: ArrayPool;
  let h: Harness;

  beforeAll(async () => {
    sim = await startSimulator({ arrayName: "lab-1", scenario: "demo" });
    pool = createArrayPool([simulatedArrayConfig("lab-1", sim, TEST_ARRAY_TUNING)], {
      logger: silentLogger(),
      sleep: async () => {},
    });
    const config = configSchema.parse({
      arrays: [{ name: "lab-1", address: sim.url, api_token_env: "T" }],
      access: { default_role: "none", viewer: { users: ["UCAROL"], groups: [] } },
    });
    h = await startHarness("http", {
      pipeline: ({ identity }) =>
        createPipeline({
          registry: createRegistry(RESOURCES),
          pool,
          config,
          identity,
          store: createMemoryPendingStore(),
          audit: memoryAuditSink(),
          logger: silentLogger(),
          now: Date.now,
        }),
    });
  });

  afterAll(async () => {
    await h?.stop();
    await pool?.close();
    await sim?.close();
  });

  it.each([
    { line: "space forecast", charts: 1 },
    { line: "perf --last 24h", charts: 2 },
    { line: "diagnose show --since 6h", charts: 2 },
  ])(
    "$line answers with $charts data_visualization block(s), each with its summary, and no PNG",
    async ({ line, charts }) => {
      const id = line.replace(/\W+/g, "-");
      await h.driver.command(
        slashCommand({ text: line, userId: "UCAROL", responseUrl: h.fake.responseUrl(id) }),
      );
      const reply = await h.fake.waitForAnswer(id);
      expect(reply.errors, "Slack would refuse these blocks").toBeUndefined();
      const blocks = (reply.body["blocks"] ?? []) as Block[];
      expect(blockKitViolations(blocks)).toEqual([]);
      const drawn = blocks.flatMap((b, i) => (b.type === "data_visualization" ? [i] : []));
      expect(drawn).toHaveLength(charts);
      for (const i of drawn) {
        const chart = blocks[i] as Block;
        expect(chart.title?.length).toBeGreaterThan(0);
        expect(chart.chart?.series.length).toBeGreaterThan(0);
        // The accessible summary: the chart in words, right after it.
        expect(blocks[i + 1]?.type).toBe("context");
        expect(String(blocks[i + 1]?.elements?.[0]?.text)).toMatch(/lab-1/);
      }
      expect(JSON.stringify(blocks)).not.toMatch(/attached as [^"]*\.png/);
      expect(
        h.fake
          .callsOf("files.getUploadURLExternal")
          .filter((c) => String(c.args["filename"]).endsWith(".png")),
      ).toEqual([]);
    },
  );
});
