import { afterEach, describe, expect, it } from "vitest";
import { parseSlackSection } from "../../src/config/slack.js";
import { createSlackApp } from "../../src/slack/app.js";
import { memoryLogger } from "../fakes/memory-logger.js";
import { FakeSlackApi } from "../fakes/slack-api-server.js";
import { TestPipeline } from "./helpers/test-pipeline.js";

describe("start-up failures", () => {
  let fake: FakeSlackApi | undefined;
  afterEach(async () => {
    await fake?.close();
  });

  async function startWith(mode: "http" | "socket", failing: string) {
    fake = await FakeSlackApi.start();
    fake.script(failing, { error: "invalid_auth" });
    const config = parseSlackSection({
      mode,
      botToken: "xoxb-revoked-token",
      ...(mode === "http" ? { signingSecret: "0123456789abcdef" } : { appToken: "xapp-revoked-token" }),
      apiUrl: fake.apiUrl,
      port: 0,
    });
    const log = memoryLogger();
    const app = createSlackApp(config, {
      logger: log.logger,
      host: "127.0.0.1",
      pipeline: ({ identity }) => new TestPipeline(identity),
    });
    const err = await app.start().then(
      () => undefined,
      (e: unknown) => e,
    );
    return { err, log };
  }

  it("a refused bot token is a clear message naming the variable, never the token", async () => {
    const { err, log } = await startWith("http", "auth.test");
    expect(err).toMatchObject({ code: "SLACK_START_FAILED" });
    expect((err as Error).message).toContain("invalid_auth");
    expect((err as Error).message).toContain("SLACK_BOT_TOKEN");
    expect((err as Error).message).not.toContain("xoxb-revoked-token");
    expect(log.text()).not.toContain("xoxb-revoked-token");
  });

  it("a refused app token in Socket Mode names SLACK_APP_TOKEN", async () => {
    const { err, log } = await startWith("socket", "apps.connections.open");
    expect(err).toMatchObject({ code: "SLACK_START_FAILED" });
    expect((err as Error).message).toContain("SLACK_APP_TOKEN");
    expect(log.text()).not.toContain("xapp-revoked-token");
  });
});
