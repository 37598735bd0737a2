/**
 * The perf chart end to end where the workspace has no data_visualization block (`slack.charts: png`): Bolt over
 * HTTP, the real pipeline and command registry, a simulated array over HTTPS, and the fake Slack Web API. The
 * PNG the command draws must reach Slack through the external upload flow (files.getUploadURLExternal, the byte
 * POST, files.completeUploadExternal) intact. Charts Slack draws itself: native-charts.test.ts.
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
import { decodePng } from "../core/chart-decode.js";
import { TEST_ARRAY_TUNING } from "../core/harness.js";
import { blockKitViolations } from "../fakes/block-kit-rules.js";
import { slashCommand } from "../fakes/payloads.js";
import { type Harness, startHarness } from "./helpers/harness.js";

describe("perf chart through Slack's file upload flow", () => {
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
    h = await startHarness(
      "http",
      {
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
      },
      { charts: "png" },
    );
  });

  afterAll(async () => {
    await h?.stop();
    await pool?.close();
    await sim?.close();
  });

  it("uploads the PNG the command drew, with its alt text, and the reply names the file", async () => {
    const url = h.fake.responseUrl("perf");
    await h.driver.command(slashCommand({ text: "perf --last 1h", userId: "UCAROL", responseUrl: url }));
    const complete = await h.fake.waitForCall("files.completeUploadExternal");
    // A private answer's files go to the requester's DM.
    expect(complete.args["channel_id"]).toBe("DUCAROL");

    const get = h.fake.callsOf("files.getUploadURLExternal")[0];
    expect(get?.args["filename"]).toBe("perf-lab-1-1h.png");
    expect(String(get?.args["alt_text"])).toMatch(
      /^Line chart of reads, writes .* on lab-1 over the last 1h/,
    );
    const fileId = (complete.args["files"] as { id: string; title: string }[])[0];
    expect(fileId?.title).toBe("IOPS and latency on lab-1, last 1h");
    const bytes = h.fake.uploads.get(fileId?.id ?? "");
    expect(Number(get?.args["length"])).toBe(bytes?.length);
    const png = decodePng(new Uint8Array(bytes ?? []));
    expect([png.width, png.height]).toEqual([800, 360]);

    const reply = await h.fake.waitForResponse((r) => r.id === "perf");
    expect(blockKitViolations(reply.body["blocks"])).toEqual([]);
    const blocks = JSON.stringify(reply.body["blocks"]);
    expect(blocks).toContain("IOPS and latency on lab-1, last 1h");
    expect(blocks).toContain("attached as perf-lab-1-1h.png");
    expect(h.fake.rejectedResponses).toEqual([]);
    expect(h.fake.unexpected).toEqual([]);
  });
});
