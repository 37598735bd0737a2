/**
 * Every call to Slack (the Web API client's, Bolt's own client's, respond() to response_urls) goes through one
 * HTTP client with a cap on sockets per origin, kept alive between calls. Node's global fetch opened one socket
 * per call in flight, without limit: 115–485 under the load test, each ~41 KiB of native memory (~100 KiB over TLS).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseSlackSection } from "../../src/config/slack.js";
import { silentLogger } from "../../src/logger.js";
import { createMetrics } from "../../src/ops/metrics.js";
import { createSlackApp, createSlackPorts } from "../../src/slack/app.js";
import { createSlackHttp, SLACK_CONNECTIONS } from "../../src/slack/http-client.js";
import { FakeSlackApi } from "../fakes/slack-api-server.js";
import { TestPipeline } from "./helpers/test-pipeline.js";

describe("the bot's HTTP client to Slack", () => {
  let fake: FakeSlackApi;
  const stops: (() => Promise<void>)[] = [];
  beforeEach(async () => {
    fake = await FakeSlackApi.start();
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    await fake.close();
  });

  const config = () =>
    parseSlackSection({
      mode: "http",
      botToken: "xoxb-sockets",
      signingSecret: "0123456789abcdef",
      apiUrl: fake.apiUrl,
      port: 0,
    });

  it("opens at most its cap of sockets for 100 Web API calls at once, and reuses them for the next 100", async () => {
    const ports = createSlackPorts(config(), {
      logger: silentLogger(),
      metrics: createMetrics({ collectDefault: false }),
    });
    stops.push(async () => {
      await ports.client.stop();
      await ports.http.close();
    });
    const burst = () => Promise.all(Array.from({ length: 100 }, () => ports.client.web.apiCall("auth.test")));
    const first = await burst();
    expect(first.every((r) => r.ok === true)).toBe(true);
    expect(fake.callsOf("auth.test")).toHaveLength(100);
    expect(fake.connectionsOpened).toBeGreaterThan(0);
    expect(fake.connectionsOpened).toBeLessThanOrEqual(SLACK_CONNECTIONS);
    const opened = fake.connectionsOpened;
    await burst();
    expect(fake.connectionsOpened).toBe(opened);
  });

  it("is shared by Bolt's own client (and its respond()), so the cap holds for the app as a whole", async () => {
    const app = createSlackApp(config(), {
      logger: silentLogger(),
      host: "127.0.0.1",
      pipeline: ({ identity }) => new TestPipeline(identity),
    });
    stops.push(() => app.ports.http.close());
    await Promise.all([
      ...Array.from({ length: 60 }, () => app.bolt.client.apiCall("auth.test")),
      ...Array.from({ length: 60 }, () => app.ports.client.web.apiCall("auth.test")),
    ]);
    expect(fake.callsOf("auth.test")).toHaveLength(120);
    expect(fake.connectionsOpened).toBeLessThanOrEqual(SLACK_CONNECTIONS);
  });

  it("closes once however often it is asked (the app may be stopped twice)", async () => {
    const http = createSlackHttp();
    await http.close();
    const second = await http.close().then(
      () => "closed",
      (err: unknown) => err,
    );
    expect(second).toBe("closed");
  });
});
