/**
 * A fan-out past its deadline in Slack: the first answer names the array still working, and the full answer
 * replaces it through the same response URL once that array has answered (or failed). A change the array is
 * slow to carry out is not silent either: past the answer deadline the person hears it did not answer in time.
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
import { slashCommand } from "../fakes/payloads.js";
import { type Harness, startHarness } from "./helpers/harness.js";

describe("late answers in Slack", () => {
  const sims = new Map<string, Simulator>();
  let pool: ArrayPool;
  let h: Harness;

  beforeAll(async () => {
    for (const name of ["lab-1", "lab-2", "lab-3"])
      sims.set(name, await startSimulator({ arrayName: name, scenario: "demo" }));
    const resolved = [...sims].map(([name, sim]) =>
      simulatedArrayConfig(name, sim, {
        ...TEST_ARRAY_TUNING,
        timeouts: { connectMs: 2000, readMs: 3000 },
        downAfterFailures: 2,
      }),
    );
    const config = configSchema.parse({
      arrays: [...sims].map(([name, sim]) => ({ name, address: sim.url, api_token_env: "T" })),
      access: { default_role: "viewer", operator: { users: ["UBOB"] } },
      channels: { default_array: "lab-1" },
      fan_out_deadline: "0.5s",
    });
    pool = createArrayPool(resolved, { logger: silentLogger(), sleep: async () => {} });
    const registry = createRegistry(RESOURCES);
    h = await startHarness("http", {
      pipeline: ({ identity }) =>
        createPipeline({
          registry,
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
    for (const s of sims.values()) await s.close();
  });

  it("answers at the deadline naming the stalled array, then replaces that answer with the full one", async () => {
    // Sessions and versions in place first, so only the listing stalls.
    const warm = h.fake.responseUrl("late-warm");
    await h.driver.command(
      slashCommand({ text: "fs list --array all", userId: "UCAROL", responseUrl: warm }),
    );
    await h.fake.waitForResponse((r) => warm.endsWith(`/${r.id}`));
    sims.get("lab-2")?.control.addLatency({ path: "/file-systems", ms: 60_000 });

    const url = h.fake.responseUrl("late-1");
    const mine = (r: { id: string }) => url.endsWith(`/${r.id}`);
    await h.driver.command(slashCommand({ text: "fs list --array all", userId: "UCAROL", responseUrl: url }));
    const first = await h.fake.waitForResponse(mine);
    expect(first.body["response_type"]).toBe("ephemeral");
    expect(JSON.stringify(first.body["blocks"])).toContain("lab-2 did not answer within 0.5 s");

    const second = await h.fake.waitForResponse(mine, 2);
    expect(second.body["replace_original"]).toBe(true);
    expect(second.body["response_type"]).toBe("ephemeral");
    const blocks = JSON.stringify(second.body["blocks"]);
    expect(blocks).not.toContain("did not answer within");
    expect(blocks).toContain("array lab-2 failed");
    expect(blocks).not.toMatch(/UND_ERR|ECONN/);
  });

  it("a single-array read past the deadline says the array is slow, then the real answer replaces it", async () => {
    const warm = h.fake.responseUrl("slow-warm");
    await h.driver.command(
      slashCommand({ text: "fs list --array lab-1", userId: "UCAROL", responseUrl: warm }),
    );
    await h.fake.waitForResponse((r) => warm.endsWith(`/${r.id}`));
    // Slower than the fan-out deadline (0.5 s), well within the read time-out (3 s): slow, not down.
    sims.get("lab-1")?.control.addLatency({ path: "/file-systems", ms: 1500 });

    const url = h.fake.responseUrl("slow-1");
    const mine = (r: { id: string }) => url.endsWith(`/${r.id}`);
    await h.driver.command(
      slashCommand({ text: "fs list --array lab-1", userId: "UCAROL", responseUrl: url }),
    );
    const first = await h.fake.waitForResponse(mine);
    expect(JSON.stringify(first.body["blocks"])).toContain("lab-1 is slow: no answer within 0.5 s");

    const second = await h.fake.waitForResponse(mine, 2);
    expect(second.body["replace_original"]).toBe(true);
    const blocks = JSON.stringify(second.body["blocks"]);
    expect(blocks).not.toContain("is slow");
    expect(blocks).toContain("home");
  });

  it("a change the array does not answer in time gets a notice saying so, then its outcome", async () => {
    const warm = h.fake.responseUrl("change-warm");
    await h.driver.command(
      slashCommand({ text: "fs list --array lab-3", userId: "UBOB", responseUrl: warm }),
    );
    await h.fake.waitForResponse((r) => warm.endsWith(`/${r.id}`));
    // Past the answer deadline (twice the fan-out deadline: 1 s), within the read time-out (3 s).
    sims.get("lab-3")?.control.addLatency({ path: "/file-systems", method: "POST", ms: 2000 });

    const url = h.fake.responseUrl("change-1");
    const mine = (r: { id: string }) => url.endsWith(`/${r.id}`);
    await h.driver.command(
      slashCommand({ text: "fs create late-fs 1T --nfs --array lab-3", userId: "UBOB", responseUrl: url }),
    );
    const first = await h.fake.waitForResponse(mine);
    expect(first.body["response_type"]).toBe("ephemeral");
    expect(String(first.body["text"])).toContain("The array did not answer in time (nothing within 1 s)");

    const second = await h.fake.waitForResponse(mine, 2);
    expect(second.body["response_type"]).toBe("in_channel");
    expect(JSON.stringify(second.body)).toContain("late-fs");
  });
});
