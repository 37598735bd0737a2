import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rich } from "../../src/core/presentation/message.js";
import { silentLogger } from "../../src/logger.js";
import { createMetrics } from "../../src/ops/metrics.js";
import { createChatPort } from "../../src/slack/chat-port.js";
import { createFileUploader } from "../../src/slack/file-upload.js";
import { PacedSlackClient } from "../../src/slack/paced-client.js";
import { FakeSlackApi } from "../fakes/slack-api-server.js";
import { listing } from "./helpers/test-pipeline.js";

describe("chat port (for alerts)", () => {
  let fake: FakeSlackApi;
  let client: PacedSlackClient;
  const metrics = createMetrics({ collectDefault: false });

  beforeAll(async () => {
    fake = await FakeSlackApi.start();
    const web = fake.webClient("xoxb-chat");
    client = new PacedSlackClient(
      web,
      { channelIntervalMs: 0, maxRetries: 1, sleep: async () => {} },
      silentLogger(),
    );
  });
  afterAll(async () => {
    await client.stop();
    await fake.close();
  });

  const port = () =>
    createChatPort({
      client,
      uploader: createFileUploader({ client, logger: silentLogger() }),
      logger: silentLogger(),
      metrics,
    });

  it("posts, updates in place, and replies in the thread without mentioning anyone", async () => {
    const chat = port();
    const ref = await chat.post("CALERTS", {
      text: "Alert 71 on fb-prod-1",
      blocks: [{ type: "section", text: rich`*critical* ${"<!channel> disk"}` }],
    });
    expect(ref).toMatchObject({ channel: "CALERTS", channelId: "CALERTS" });
    const posted = fake.messages.get(`CALERTS/${ref.ts}`);
    expect(JSON.stringify(posted?.blocks)).toContain("&lt;!channel&gt; disk");

    await chat.update(ref, { text: "Alert 71 cleared", blocks: [{ type: "section", text: rich`cleared` }] });
    expect(fake.messages.get(`CALERTS/${ref.ts}`)?.text).toBe("Alert 71 cleared");

    const reply = await chat.postInThread(ref, "flapping again <!here> <@U1>");
    const call = fake.callsOf("chat.postMessage").at(-1);
    expect(call?.args).toMatchObject({ thread_ts: ref.ts, parse: "none", link_names: "false" });
    expect(call?.args["text"]).toBe("flapping again &lt;!here&gt; &lt;@U1&gt;");
    expect(reply.ts).not.toBe(ref.ts);
    const text = await metrics.registry.metrics();
    expect(text).toContain('array_chatops_alert_posts_total{kind="post",outcome="ok"} 1');
    expect(text).toContain('array_chatops_alert_posts_total{kind="thread",outcome="ok"} 1');
  });

  it("puts files for a posted message in its thread", async () => {
    const ref = await port().post("CALERTS", listing(500));
    const complete = await fake.waitForCall(
      "files.completeUploadExternal",
      (c) => c.args["thread_ts"] === ref.ts,
    );
    expect(complete.args["channel_id"]).toBe("CALERTS");
  });

  it("counts a failed post and surfaces the error", async () => {
    fake.script("chat.postMessage", { error: "not_in_channel" });
    await expect(port().post("CNOPE", { text: "x", blocks: [] })).rejects.toThrow();
    expect(await metrics.registry.metrics()).toContain(
      'array_chatops_alert_posts_total{kind="post",outcome="error"} 1',
    );
  });
});
