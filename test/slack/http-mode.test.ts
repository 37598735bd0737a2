import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClickInput } from "../../src/core/context/pipeline-types.js";
import { blockAction, slashCommand } from "../fakes/payloads.js";
import { commandBody, signedPost } from "../fakes/signed-request.js";
import { BOT_TOKEN, type Harness, SECRET, startHarness } from "./helpers/harness.js";
import { TestPipeline } from "./helpers/test-pipeline.js";

describe("HTTP mode", () => {
  let h: Harness;
  let pipeline: TestPipeline;
  const alertClicks: ClickInput[] = [];

  beforeAll(async () => {
    h = await startHarness("http", {
      pipeline: ({ identity }) => {
        pipeline = new TestPipeline(identity);
        return pipeline;
      },
      // The test pipeline's own commands; the real app labels by registry id (test/slack/full-flow.test.ts).
      commandLabel: (text) => (/^(list|slow)\b/.test(text) ? (text.split(" ")[0] ?? "") : "unknown"),
      clickRoutes: [
        {
          matches: (id) => id.startsWith("alert."),
          handleClick: async (input) => {
            alertClicks.push(input);
            return [{ kind: "reply", message: { text: "Snoozed for 1 hour.", blocks: [] } }];
          },
        },
      ],
    });
  });
  afterAll(() => h.stop());

  const command = (text: string, extra: Partial<Parameters<typeof slashCommand>[0]> = {}) =>
    slashCommand({ text, responseUrl: h.fake.responseUrl(`r-${Math.random()}`), ...extra });

  it("refuses unsigned, tampered and stale requests without running anything", async () => {
    const url = `${h.baseUrl}/slack/events`;
    const body = commandBody(command("list 3"));
    const before = pipeline.commands.length;

    expect((await signedPost(url, body)).status).toBe(401);
    const tampered = commandBody(command("destroy fs1"));
    expect((await signedPost(url, tampered, { secret: SECRET, signedBody: body })).status).toBe(401);
    const sixMinutesAgo = Math.floor(Date.now() / 1000) - 6 * 60;
    expect((await signedPost(url, body, { secret: SECRET, timestampSec: sixMinutesAgo })).status).toBe(401);
    expect((await signedPost(url, body, { secret: "wrong-secret-000000" })).status).toBe(401);

    expect(pipeline.commands.length).toBe(before);
  });

  it("acknowledges before the pipeline finishes, then answers through response_url", async () => {
    const payload = command("slow");
    const ack = await h.driver.command(payload);
    expect(ack.status).toBe(200);
    // The ack is already here while the pipeline is still blocked on the slow array.
    expect(pipeline.slowFinished).toBe(false);
    await pipeline.slowStarted;
    pipeline.releaseSlow();
    const answer = await h.fake.waitForResponse((r) => payload.response_url?.endsWith(r.id) ?? false);
    expect(answer.body).toMatchObject({
      response_type: "ephemeral",
      text: "slow answer",
      replace_original: false,
    });
    expect(pipeline.commands.at(-1)).toMatchObject({
      text: "slow",
      requestId: payload.trigger_id,
      actor: { userId: "U1", channelId: "C1", displayName: "alice" },
    });
  });

  it("acknowledges a verified command before Bolt's middleware runs, then runs it there", async () => {
    // A global middleware that holds every request: before, the ack waited behind it (Bolt acks from the
    // listener, after the middleware); now the receiver's guard has answered 200 already.
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let holding = 0;
    h.app.bolt.use(async ({ next }) => {
      holding++;
      await held;
      await next();
    });
    const payload = command("list 2");
    try {
      const ack = await h.driver.command(payload);
      expect(ack.status).toBe(200);
      expect(ack.body).toBeUndefined();
      expect(pipeline.commands.some((c) => c.requestId === payload.trigger_id)).toBe(false);
    } finally {
      release();
    }
    const answer = await h.fake.waitForResponse((r) => payload.response_url?.endsWith(r.id) ?? false);
    expect(answer.body["response_type"]).toBe("ephemeral");
    expect(holding).toBeGreaterThanOrEqual(1);
    expect(pipeline.commands.filter((c) => c.requestId === payload.trigger_id)).toHaveLength(1);
  });

  it("answers lookups ephemerally and --public ones in the channel", async () => {
    const quiet = command("list 3");
    const loud = command("list 3 --public");
    await h.driver.command(quiet);
    await h.driver.command(loud);
    const a = await h.fake.waitForResponse((r) => quiet.response_url?.endsWith(r.id) ?? false);
    const b = await h.fake.waitForResponse((r) => loud.response_url?.endsWith(r.id) ?? false);
    expect(a.body["response_type"]).toBe("ephemeral");
    expect(b.body["response_type"]).toBe("in_channel");
    expect(JSON.stringify(a.body["blocks"])).toContain('"type":"data_table"');
  });

  it("runs a retried delivery of the same command once", async () => {
    const payload = command("list 2", { triggerId: "trig-dup-1" });
    const before = pipeline.commands.length;
    await h.driver.command(payload);
    await h.driver.command(payload);
    await h.fake.waitForResponse((r) => payload.response_url?.endsWith(r.id) ?? false);
    const first = pipeline.commands.length;
    // A later command proves the duplicate was dropped, not merely slow.
    const next = command("list 1");
    await h.driver.command(next);
    await h.fake.waitForResponse((r) => next.response_url?.endsWith(r.id) ?? false);
    expect(first - before).toBe(1);
    expect(h.fake.responses.filter((r) => payload.response_url?.endsWith(r.id)).length).toBe(1);
  });

  it("shows a generic error with the request id when the pipeline throws", async () => {
    const payload = command("fail");
    await h.driver.command(payload);
    const r = await h.fake.waitForResponse((x) => payload.response_url?.endsWith(x.id) ?? false);
    expect(r.body["text"]).toContain(`request ${payload.trigger_id}`);
    expect(r.body["text"]).not.toContain("exploded");
  });

  it("falls back to chat.postEphemeral when response_url has expired", async () => {
    h.fake.responseUrlStatus = 404;
    try {
      const payload = command("list 1", { userId: "U7", channelId: "C9" });
      await h.driver.command(payload);
      const call = await h.fake.waitForCall("chat.postEphemeral", (c) => c.args["user"] === "U7");
      expect(call.args["channel"]).toBe("C9");
      expect(call.token).toBe(BOT_TOKEN);
    } finally {
      h.fake.responseUrlStatus = 200;
    }
  });

  it("hands alert buttons to their own handler, not the command pipeline", async () => {
    const clicksBefore = pipeline.clicks.length;
    const url = h.fake.responseUrl("alert-click");
    await h.driver.interactive(
      blockAction({
        actionId: "alert.snooze",
        value: "card-7",
        userId: "U3",
        messageTs: "1700000001.000100",
        responseUrl: url,
      }),
    );
    expect((await h.fake.waitForResponse((r) => r.id === "alert-click")).body["text"]).toBe(
      "Snoozed for 1 hour.",
    );
    expect(alertClicks).toHaveLength(1);
    expect(alertClicks[0]).toMatchObject({
      actionId: "alert.snooze",
      value: "card-7",
      actor: { userId: "U3", channelId: "C1" },
    });
    expect(pipeline.clicks.length).toBe(clicksBefore);
  });

  it("serves /healthz, /readyz and /metrics on the receiver's port", async () => {
    const health = await fetch(`${h.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    const ready = await fetch(`${h.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, slack: { mode: "http", connected: true } });
    const metrics = await (await fetch(`${h.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/array_chatops_commands_total\{command="list",outcome="ok"\} [1-9]/);
    expect(metrics).toContain("array_chatops_command_duration_seconds_bucket");
  });

  it("never logs the tokens or the signing secret", () => {
    const text = h.log.text();
    expect(text).not.toContain(BOT_TOKEN);
    expect(text).not.toContain(SECRET);
  });
});
