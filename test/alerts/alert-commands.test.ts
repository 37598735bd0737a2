import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { createAlertEngine } from "../../src/alerts/engine.js";
import { RecordingChat } from "../../src/alerts/replay/recording-chat.js";
import { defaultAlertsConfig } from "../../src/config/alerts.js";
import { configSchema } from "../../src/config/schema.js";
import { createMemoryPendingStore } from "../../src/core/approvals/pending-store-memory.js";
import { memoryAuditSink } from "../../src/core/audit/audit.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { createPipeline } from "../../src/core/pipeline/pipeline.js";
import { silentLogger } from "../../src/logger.js";
import { createMemoryStore } from "../../src/store/memory.js";
import { DEMO_ACCESS, type Harness, startHarness, textOf } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

const alerts = () => [...(h.sims.get("lab-1")?.state.alerts.values() ?? [])];

describe("alert list and show (read from the array)", () => {
  test("lists open alerts by default, newest first, and filters by severity and state", async () => {
    const open = alerts().filter((a) => a.state !== "closed");
    const text = textOf(await h.run("carol", "alert list"));
    expect(text).toContain(`${open.length} open alerts on array lab-1`);
    expect(text).toContain("Blade CH1.FB5 is unhealthy");
    expect(text).not.toContain("Ethernet connector CH1.FM2.ETH1");

    const critical = textOf(await h.run("carol", "alert list --severity critical"));
    expect(critical).toContain("open critical alerts on array lab-1");
    expect(critical).not.toContain("fb-lab-02");

    expect(textOf(await h.run("carol", "alert list --state all"))).toContain(
      "Ethernet connector CH1.FM2.ETH1",
    );
    expect(textOf(await h.run("carol", "alert list --severity fatal"))).toContain("severity");
  });

  test("show gives the text and what to do; an unknown number says where to look", async () => {
    const blade = alerts().find((a) => a.component === "CH1.FB5");
    const text = textOf(await h.run("carol", `alert show ${blade?.index}`));
    expect(text).toContain("Blade CH1.FB5 is unhealthy");
    expect(text).toContain("What to do: This alert should automatically generate a support case");
    expect(textOf(await h.run("carol", "alert show 9999"))).toContain("Array lab-1 has no alert 9999.");
    expect(textOf(await h.run("carol", "alert show x1"))).toContain("is not an alert number");
  });
});

describe("alert flag and unflag (change the array)", () => {
  test("operators flag and unflag; viewers are refused and nothing changes", async () => {
    const target = alerts().find((a) => a.state !== "closed" && !a.flagged);
    if (!target) throw new Error("no unflagged open alert in the demo scenario");
    const refused = textOf(await h.run("carol", `alert flag ${target.index}`));
    expect(refused).toMatch(/operator/);
    expect(target.flagged).toBe(false);

    expect(textOf(await h.run("bob", `alert flag ${target.index}`))).toContain(
      `Flagged alert ${target.index} on lab-1`,
    );
    expect(h.sims.get("lab-1")?.state.alerts.get(target.index)?.flagged).toBe(true);
    await h.run("bob", `alert unflag ${target.index}`);
    expect(h.sims.get("lab-1")?.state.alerts.get(target.index)?.flagged).toBe(false);
  });
});

describe("alert routes and test (answered by the alert engine)", () => {
  test("routes lists what posts into the caller's channel; test posts a sample there", async () => {
    const chat = new RecordingChat();
    const engine = createAlertEngine({
      config: defaultAlertsConfig({
        routes: [
          { name: "oncall", min_severity: "critical", channels: ["CONCALL01"] },
          { name: "lab", arrays: ["lab-1"], codes: [1000, 1001], channels: ["CONCALL01", "CLAB00001"] },
        ],
        default_channels: ["CNOISE001"],
      }),
      source: {
        arrays: () => [],
        list: async () => [],
        setFlagged: async () => {},
        supportsAlerts: async () => true,
        probe: async () => {},
      },
      chat,
      store: createMemoryStore(),
      authorizer: { allowed: async () => false },
    });
    const pipeline = createPipeline({
      registry: createRegistry(RESOURCES),
      pool: h.pool,
      config: configSchema.parse({
        arrays: [{ name: "lab-1", address: h.sims.get("lab-1")?.url, api_token_env: "T" }],
        access: DEMO_ACCESS,
      }),
      identity: { groupsOf: async () => [], isRestricted: async () => false },
      store: createMemoryPendingStore(),
      audit: memoryAuditSink(),
      logger: silentLogger(),
      now: () => Date.UTC(2026, 0, 5, 9, 0),
      alerts: engine.commands,
    });
    const run = async (user: string, text: string, channelId: string) =>
      textOf(
        await pipeline.handleCommand({ text, actor: { kind: "console" as const, userId: user, channelId } }),
      );

    const routes = await run("carol", "alert routes", "CONCALL01");
    expect(routes).toContain("2 alert routes post into this channel");
    expect(routes).toContain("oncall | any array; severity critical or higher");
    expect(routes).toContain("lab | arrays lab-1; codes 1000, 1001");
    expect(await run("carol", "alert routes", "CNOISE001")).toContain("default | alerts no route matches");
    expect(await run("carol", "alert routes", "COTHER001")).toContain(
      "No alert route posts into this channel.",
    );

    expect(await run("carol", "alert test", "CLAB00001")).toMatch(/operator/);
    expect(chat.posts).toBe(0);
    expect(await run("bob", "alert test #CLAB00001", "COTHER001")).toContain(
      "Posted a test alert in <#CLAB00001>",
    );
    const posted = chat.topLevel("CLAB00001");
    expect(posted).toHaveLength(1);
    expect(posted[0]?.message.text).toContain("Test alert from array-chatops");
    expect(await run("bob", "alert test general", "COTHER001")).toContain("give the channel ID");
  });

  test("without the engine, routes says alerts are not running", async () => {
    expect(textOf(await h.run("carol", "alert routes"))).toContain("Alert notifications are not running");
  });
});
