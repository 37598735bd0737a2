/**
 * Mention and markup injection through the alert engine's own posts: an array alert whose component, subject,
 * description and action carry mentions and links is posted to its channel (and updated when it changes)
 * without a live mention or link in any mrkdwn text or notification fallback.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AlertEngine, createAlertEngine } from "../../src/alerts/engine.js";
import { poolAlertSource } from "../../src/alerts/pool-source.js";
import { defaultAlertsConfig } from "../../src/config/alerts.js";
import { createArrayPool } from "../../src/flashblade/pool.js";
import type { ArrayPool } from "../../src/flashblade/types.js";
import { silentLogger } from "../../src/logger.js";
import { type Simulator, simulatedArrayConfig, startSimulator } from "../../src/simulator/index.js";
import { raiseAlert, updateAlert } from "../../src/simulator/state-control.js";
import { createMemoryStore } from "../../src/store/memory.js";
import { TEST_ARRAY_TUNING } from "../core/harness.js";
import { type Harness, startHarness } from "../slack/helpers/harness.js";
import { mrkdwnTexts } from "./helpers/mrkdwn.js";

const CHANNEL = "CALERTS01";
const LIVE = [/<!channel>/, /<!here/, /<@UEVIL>/, /<https:\/\/evil/];

describe("injection through alert posts", () => {
  let sim: Simulator;
  let pool: ArrayPool;
  let h: Harness;
  let engine: AlertEngine | undefined;

  beforeAll(async () => {
    sim = await startSimulator({ arrayName: "lab-1", scenario: "empty" });
    pool = createArrayPool([simulatedArrayConfig("lab-1", sim, TEST_ARRAY_TUNING)], {
      logger: silentLogger(),
      sleep: async () => {},
    });
    h = await startHarness("http", {
      pipeline: {
        handleCommand: async () => [],
        handleClick: async () => [],
        attachMessage: async () => {},
        sweepExpired: async () => [],
        recoverInterrupted: async () => [],
      },
      clickRoutes: (ports) => {
        engine = createAlertEngine({
          config: defaultAlertsConfig({ routes: [{ name: "all", channels: [CHANNEL] }] }),
          source: poolAlertSource(pool),
          chat: ports.chat,
          store: createMemoryStore(),
          authorizer: { allowed: async () => false },
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

  it("posts and updates a hostile alert with every mention and link escaped", async () => {
    if (!engine) throw new Error("engine not built");
    await engine.pollNow("lab-1");
    const a = raiseAlert(sim.state, {
      code: 1000,
      severity: "warning",
      component: "<!channel> CH1.FB2 <@UEVIL>",
      subject: "<https://evil.example|Blade> is *unhealthy* <!here>",
      description: "<@UEVIL> says <https://evil.example|click here>",
      action: "<!channel> run <https://evil.example|this>",
    });
    await engine.pollNow("lab-1");
    await engine.idle();
    updateAlert(sim.state, a.index, { severity: "critical" });
    await engine.pollNow("lab-1");
    await engine.idle();
    const sent = h.fake.calls.filter((c) => c.method.startsWith("chat.")).map((c) => c.args);
    expect(sent.length).toBeGreaterThan(1);
    expect(JSON.stringify(sent)).toContain("UEVIL");
    const texts = sent.flatMap((p) => mrkdwnTexts(p));
    for (const t of texts) for (const live of LIVE) expect(t).not.toMatch(live);
  });

  it("an alert whose text holds escape sequences, line breaks and 200 characters posts harmlessly", async () => {
    if (!engine) throw new Error("engine not built");
    const before = h.fake.calls.length;
    raiseAlert(sim.state, {
      code: 1001,
      severity: "critical",
      component: `${"C".repeat(200)}\u001b[2J`,
      subject: `Blade\r\u001b]0;owned\u0007 ${"S".repeat(200)} \u202Eevil`,
      description: "line one\n\u001b[31m*pwn*\u001b[0m `code` &<>",
      action: "\u001b[1mreplace\u001b[0m",
    });
    await engine.pollNow("lab-1");
    await engine.idle();
    const sent = h.fake.calls
      .slice(before)
      .filter((c) => c.method.startsWith("chat."))
      .map((c) => c.args);
    expect(JSON.stringify(sent)).toContain("CCCCCCCCCC");
    const strings = (v: unknown): string[] =>
      typeof v === "string"
        ? [v]
        : Array.isArray(v)
          ? v.flatMap(strings)
          : v !== null && typeof v === "object"
            ? Object.values(v).flatMap(strings)
            : [];
    for (const t of sent.flatMap(strings)) {
      expect(t).not.toContain("\u001b");
      expect(t).not.toContain("\r");
      expect(t).not.toContain("\u202E");
    }
    const headers = JSON.stringify(sent).matchAll(
      /"type":"header","text":\{"type":"plain_text","text":"((?:[^"\\]|\\.)*)"/g,
    );
    for (const m of headers) expect((JSON.parse(`"${m[1]}"`) as string).length).toBeLessThanOrEqual(150);
    for (const t of sent.flatMap((p) => mrkdwnTexts(p, false))) expect(t).not.toMatch(/\*pwn\*/);
  });
});
