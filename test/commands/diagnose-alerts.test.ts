/**
 * diagnose reads open alerts from the running alert engine (its command port), not from the array: an alert
 * the engine holds is ranked with the other findings, and the answer says where alerts came from.
 */
import { afterEach, describe, expect, it } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { configSchema } from "../../src/config/schema.js";
import { createMemoryPendingStore } from "../../src/core/approvals/pending-store-memory.js";
import { memoryAuditSink } from "../../src/core/audit/audit.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { createPipeline } from "../../src/core/pipeline/pipeline.js";
import { silentLogger } from "../../src/logger.js";
import { raiseAlert } from "../../src/simulator/state-control.js";
import { type AlertHarness, startAlertHarness } from "../alerts/helpers/harness.js";
import { textOf } from "../core/harness.js";

let h: AlertHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("diagnose with the alert engine running", () => {
  it("ranks the engine's open critical alert and says the alerts come from the engine", async () => {
    h = await startAlertHarness({ config: { jitter: 0 } });
    raiseAlert(h.sim.state, {
      code: 1001,
      severity: "critical",
      component: "CH1.FB3",
      subject: "Blade CH1.FB3 is unreachable",
      description: "test",
    });
    h.engine.start();
    await h.advance(30_000);
    const pipeline = createPipeline({
      registry: createRegistry(RESOURCES),
      pool: h.pool,
      config: configSchema.parse({
        arrays: [{ name: "fb1", address: h.sim.url, api_token_env: "X" }],
        access: { viewer: { users: ["carol"] } },
      }),
      identity: { groupsOf: async () => [], isRestricted: async () => false },
      store: createMemoryPendingStore(),
      audit: memoryAuditSink(),
      logger: silentLogger(),
      now: h.clock.now,
      alerts: h.engine.commands,
    });
    const effects = await pipeline.handleCommand({
      text: "diagnose",
      actor: { kind: "console" as const, userId: "carol", channelId: "C1" },
    });
    const text = textOf(effects);
    expect(text).toMatch(/1\. \*critical alert \d+\* \(code 1001\) open: Blade CH1\.FB3 is unreachable/);
    expect(text).toContain("alerts from the alert engine");
  });
});
