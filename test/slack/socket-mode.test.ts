import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventCallback, slashCommand } from "../fakes/payloads.js";
import { APP_TOKEN, BOT_TOKEN, type Harness, startHarness } from "./helpers/harness.js";
import { TestPipeline } from "./helpers/test-pipeline.js";

describe("Socket Mode", () => {
  let h: Harness;
  let pipeline: TestPipeline;

  beforeAll(async () => {
    h = await startHarness(
      "socket",
      {
        pipeline: ({ identity }) => {
          pipeline = new TestPipeline(identity);
          return pipeline;
        },
      },
      { pingTimeoutMs: 100 },
    );
  });
  afterAll(() => h.stop());

  it("opens the socket with the app token from apps.connections.open, and the Web API with the bot token", () => {
    const open = h.fake.callsOf("apps.connections.open");
    expect(open.length).toBeGreaterThanOrEqual(1);
    expect(open[0]?.token).toBe(APP_TOKEN);
    expect(h.fake.callsOf("auth.test")[0]?.token).toBe(BOT_TOKEN);
  });

  it("acknowledges the envelope before the pipeline finishes", async () => {
    const payload = slashCommand({ text: "slow", responseUrl: h.fake.responseUrl("slow-s") });
    const ack = await h.socket!.send("slash_commands", payload);
    expect(ack.envelope_id).toBeTruthy();
    expect(pipeline.slowFinished).toBe(false);
    await pipeline.slowStarted;
    pipeline.releaseSlow();
    const answer = await h.fake.waitForResponse((r) => r.id === "slow-s");
    expect(answer.body["text"]).toBe("slow answer");
  });

  it("runs a redelivered envelope once", async () => {
    const payload = slashCommand({
      text: "list 1",
      responseUrl: h.fake.responseUrl("dup-s"),
      triggerId: "trig-s-dup",
    });
    await h.socket!.send("slash_commands", payload);
    await h.socket!.send("slash_commands", payload, { retryAttempt: 1 });
    const probe = slashCommand({ text: "list 2", responseUrl: h.fake.responseUrl("probe-s") });
    await h.socket!.send("slash_commands", probe);
    await h.fake.waitForResponse((r) => r.id === "probe-s");
    expect(h.fake.responses.filter((r) => r.id === "dup-s")).toHaveLength(1);
    expect(pipeline.commands.filter((c) => c.requestId === "trig-s-dup")).toHaveLength(1);
  });

  it("acknowledges events too, and ignores ones for other tabs", async () => {
    const before = h.fake.callsOf("views.publish").length;
    const ack = await h.socket!.send(
      "events_api",
      eventCallback({ type: "app_home_opened", user: "U1", channel: "D1", tab: "messages", event_ts: "1.0" }),
    );
    expect(ack.envelope_id).toBeTruthy();
    expect(h.fake.callsOf("views.publish").length).toBe(before);
  });

  it("reports readiness on the ops port and reconnects when Slack asks it to", async () => {
    const ready = await fetch(`${h.baseUrl}/readyz`);
    expect(await ready.json()).toMatchObject({ ready: true, slack: { mode: "socket", connected: true } });

    const opens = h.fake.callsOf("apps.connections.open").length;
    const connectedLines = () => h.log.lines.filter((l) => l["msg"] === "socket mode connected").length;
    const connectedBefore = connectedLines();
    const lost = h.log.waitFor((l) => l["msg"] === "socket mode connection lost");
    h.socket!.sendDisconnect("refresh_requested");
    await lost;
    expect(h.app.readiness.slackConnected).toBe(false);
    await h.fake.waitForCall("apps.connections.open", () => true, opens + 1);
    await h.log.waitFor((l) => l["msg"] === "socket mode connected" && connectedLines() > connectedBefore);
    expect(h.app.readiness.slackConnected).toBe(true);
    const again = slashCommand({ text: "list 1", responseUrl: h.fake.responseUrl("after-reconnect") });
    await h.socket!.send("slash_commands", again);
    await h.fake.waitForResponse((r) => r.id === "after-reconnect");
  });

  it("never logs the tokens or the socket URL's ticket", () => {
    const text = h.log.text();
    expect(text).not.toContain(APP_TOKEN);
    expect(text).not.toContain(BOT_TOKEN);
    expect(text).not.toContain("ticket=fake");
  });
});
