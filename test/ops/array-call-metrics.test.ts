import { EventEmitter } from "node:events";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfigText } from "../../src/config/load.js";
import { buildCore } from "../../src/main.js";
import { createMetrics } from "../../src/ops/metrics.js";
import { DEFAULT_API_TOKEN, type Simulator, startSimulator } from "../../src/simulator/index.js";
import { runSlack } from "../../src/slack/run.js";
import { memoryLogger } from "../fakes/memory-logger.js";
import { slashCommand } from "../fakes/payloads.js";
import { commandBody, signedPost } from "../fakes/signed-request.js";
import { FakeSlackApi } from "../fakes/slack-api-server.js";

const SECRET = "array-metrics-signing-secret";

/** A loopback port nothing listens on (connections are refused). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** The value of one sample line in Prometheus text, or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("array-call metrics in Slack mode", () => {
  let sim: Simulator;
  let fake: FakeSlackApi;
  let dir: string;

  beforeAll(async () => {
    sim = await startSimulator({ arrayName: "lab-1", scenario: "demo" });
    fake = await FakeSlackApi.start();
    dir = mkdtempSync(join(tmpdir(), "array-metrics-"));
  });
  afterAll(async () => {
    await fake.close();
    await sim.close();
  });

  it("/metrics shows the calls a command made, by array and outcome, and the failures by code", async () => {
    const deadPort = await closedPort();
    const yaml = [
      "arrays:",
      "  - name: lab-1",
      `    address: ${sim.url}`,
      "    api_token_env: LAB_TOKEN",
      "    ca_file: ca.pem",
      "  - name: dead-1",
      `    address: https://127.0.0.1:${deadPort}`,
      "    api_token_env: LAB_TOKEN",
      "    ca_file: ca.pem",
      "access:",
      "  viewer: { users: [U1] }",
      "slack:",
      "  port: 0",
      "  channelIntervalMs: 0",
    ].join("\n");
    const loaded = parseConfigText(yaml, {
      source: join(dir, "bot.yml"),
      env: {
        LAB_TOKEN: DEFAULT_API_TOKEN,
        SLACK_BOT_TOKEN: "xoxb-metrics",
        SLACK_SIGNING_SECRET: SECRET,
        SLACK_API_URL: fake.apiUrl,
      },
      readFile: (p) => (p.endsWith("ca.pem") ? sim.ca : ""),
      baseDir: dir,
    });
    const log = memoryLogger();
    const signals = new EventEmitter();
    const started = log.waitFor((l) => l["msg"] === "slack app started");
    const done = runSlack(loaded, {
      logger: log.logger,
      signals,
      // The production composition: main.ts's buildCore, given the recorder runSlack hands it.
      buildCore: (deps) => buildCore(loaded, { logger: log.logger, ...deps }),
    });
    const port = (await started)["port"] as number;
    const metricsText = async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();

    const before = await metricsText();
    expect(before).not.toContain('array_call_duration_seconds_count{array="lab-1"');

    const res = await signedPost(
      `http://127.0.0.1:${port}/slack/events`,
      commandBody(slashCommand({ text: "fs list --array all", responseUrl: fake.responseUrl("m-1") })),
      { secret: SECRET },
    );
    expect(res.status).toBe(200);
    const answer = await fake.waitForResponse((r) => r.id === "m-1");
    expect(JSON.stringify(answer.body)).toContain("lab-1");

    const text = await metricsText();
    expect(
      sample(text, 'array_chatops_array_call_duration_seconds_count{array="lab-1",outcome="ok"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'array_chatops_array_call_duration_seconds_bucket{le="+Inf",array="lab-1",outcome="ok"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'array_chatops_array_call_duration_seconds_count{array="dead-1",outcome="error"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'array_chatops_array_call_errors_total{array="dead-1",code="ARRAY_UNREACHABLE"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('array_call_errors_total{array="lab-1"');

    signals.emit("SIGTERM");
    expect(await done).toBe(0);
  });
});

describe("the array-call recorder", () => {
  it("counts every event once, across batch flushes and repeated scrapes", async () => {
    const metrics = createMetrics({ collectDefault: false });
    const record = metrics.arrayCalls.record;
    // More than one batch: some events are flushed while recording, the rest by the scrape.
    for (let i = 0; i < 300; i++) {
      record({ array: "fb1", method: "GET", path: "/file-systems", outcome: "ok", status: 200, ms: 20 });
    }
    for (let i = 0; i < 7; i++) {
      record({ array: "fb1", method: "GET", path: "/arrays", outcome: "error", code: "ARRAY_BUSY", ms: 0.1 });
    }
    record({ array: "fb2", method: "POST", path: "/file-systems", outcome: "error", ms: 3000 });
    const first = await metrics.registry.metrics();
    const second = await metrics.registry.metrics();
    for (const text of [first, second]) {
      expect(sample(text, 'array_chatops_array_call_duration_seconds_count{array="fb1",outcome="ok"}')).toBe(
        300,
      );
      expect(
        sample(text, 'array_chatops_array_call_duration_seconds_bucket{le="0.025",array="fb1",outcome="ok"}'),
      ).toBe(300);
      expect(
        sample(text, 'array_chatops_array_call_duration_seconds_sum{array="fb1",outcome="ok"}'),
      ).toBeCloseTo(6);
      expect(
        sample(text, 'array_chatops_array_call_duration_seconds_count{array="fb1",outcome="error"}'),
      ).toBe(7);
      expect(sample(text, 'array_chatops_array_call_errors_total{array="fb1",code="ARRAY_BUSY"}')).toBe(7);
      expect(sample(text, 'array_chatops_array_call_errors_total{array="fb2",code="INTERNAL"}')).toBe(1);
      expect(
        sample(
          text,
          'array_chatops_array_call_duration_seconds_bucket{le="2.5",array="fb2",outcome="error"}',
        ),
      ).toBe(0);
    }
  });
});
