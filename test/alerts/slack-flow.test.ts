/**
 * Alert buttons end to end: Bolt in HTTP mode fed a signed block action, the engine as the click route for
 * "alert." buttons, role checks from the access config, a simulated array, and the fake Slack Web API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AlertEngine, createAlertEngine } from "../../src/alerts/engine.js";
import { poolAlertSource } from "../../src/alerts/pool-source.js";
import { defaultAlertsConfig } from "../../src/config/alerts.js";
import { createAccessResolver } from "../../src/core/access/authz.js";
import { roleAtLeast } from "../../src/core/access/roles.js";
import { createArrayPool } from "../../src/flashblade/pool.js";
import type { ArrayPool } from "../../src/flashblade/types.js";
import { silentLogger } from "../../src/logger.js";
import { type Simulator, simulatedArrayConfig, startSimulator } from "../../src/simulator/index.js";
import { raiseAlert } from "../../src/simulator/state-control.js";
import { createMemoryStore } from "../../src/store/memory.js";
import { TEST_ARRAY_TUNING } from "../core/harness.js";
import { blockKitViolations } from "../fakes/block-kit-rules.js";
import { blockAction } from "../fakes/payloads.js";
import { type Harness, startHarness } from "../slack/helpers/harness.js";

const CHANNEL = "CALERTS01";

describe("alert buttons through the Slack app", () => {
  let sim: Simulator;
  let pool: ArrayPool;
  let h: Harness;
  let engine: AlertEngine | undefined;
  let seq = 0;

  beforeAll(async () => {
    sim = await startSimulator({ arrayName: "lab-1", scenario: "empty" });
    const resolved = simulatedArrayConfig("lab-1", sim, TEST_ARRAY_TUNING);
    pool = createArrayPool([resolved], { logger: silentLogger(), sleep: async () => {} });
    const access = {
      default_role: "none" as const,
      operator: { users: ["UOPS"], groups: [] },
      viewer: { users: ["UVIEW"], groups: [] },
      overrides: [],
    };
    h = await startHarness("http", {
      pipeline: {
        handleCommand: async () => [],
        handleClick: async () => [],
        attachMessage: async () => {},
        sweepExpired: async () => [],
        recoverInterrupted: async () => [],
      },
      clickRoutes: (ports) => {
        const resolver = createAccessResolver(access, ports.identity);
        engine = createAlertEngine({
          config: defaultAlertsConfig({ routes: [{ name: "all", channels: [CHANNEL] }] }),
          source: poolAlertSource(pool),
          chat: ports.chat,
          store: createMemoryStore(),
          authorizer: {
            allowed: async (actor, array, role) =>
              roleAtLeast(await resolver.roleOn(actor.userId, { name: array, tags: [] }), role),
          },
        });
        return [engine];
      },
    });
  });

  afterAll(async () => {
    await engine?.stop();
    await h?.stop();
    await pool?.close();
    await sim?.close();
  });

  it("posts the alert within Slack's limits, and a Flag click by an operator flags it on the array", async () => {
    if (!engine) throw new Error("engine not built");
    await engine.pollNow("lab-1");
    const a = raiseAlert(sim.state, {
      code: 1000,
      severity: "warning",
      component: "CH1.FB2",
      subject: "Blade CH1.FB2 is unhealthy",
    });
    await engine.pollNow("lab-1");
    await engine.idle();
    const post = h.fake.callsOf("chat.postMessage").find((c) => c.args["channel"] === CHANNEL);
    expect(post).toBeDefined();
    expect(blockKitViolations(post?.args["blocks"])).toEqual([]);
    const msg = [...h.fake.messages.values()].find((m) => m.channel === CHANNEL && m.threadTs === undefined);
    const flag = (
      (msg?.blocks ?? []) as { type: string; elements?: { action_id: string; value: string }[] }[]
    )
      .flatMap((b) => (b.type === "actions" ? (b.elements ?? []) : []))
      .find((e) => e.action_id === "alert.flag");
    expect(flag).toBeDefined();

    const click = async (userId: string) => {
      const url = h.fake.responseUrl(`alert-${++seq}`);
      await h.driver.interactive(
        blockAction({
          actionId: flag?.action_id ?? "",
          value: flag?.value ?? "",
          userId,
          channelId: CHANNEL,
          messageTs: msg?.ts ?? "",
          responseUrl: url,
        }),
      );
      return h.fake.waitForResponse((r) => url.endsWith(`/${r.id}`));
    };

    const refused = await click("UVIEW");
    expect(JSON.stringify(refused.body)).toContain("needs the operator role");
    expect(sim.state.alerts.get(a.index)?.flagged).toBe(false);

    const ok = await click("UOPS");
    expect(JSON.stringify(ok.body)).toContain(`Flagged alert ${a.index} on lab-1`);
    expect(sim.state.alerts.get(a.index)?.flagged).toBe(true);
    const update = await h.fake.waitForCall("chat.update", (c) => c.args["ts"] === msg?.ts);
    expect(JSON.stringify(update.args["blocks"])).toContain("alert.unflag");
    expect(h.fake.unexpected).toEqual([]);
  });
});
