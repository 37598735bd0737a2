import { EventEmitter } from "node:events";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { parseConfigText } from "../../src/config/load.js";
import { createPipeline } from "../../src/core/pipeline.js";
import { createRegistry } from "../../src/core/registry.js";
import { createArrayPool } from "../../src/flashblade/pool.js";
import { DEFAULT_API_TOKEN, type Simulator, startSimulator } from "../../src/simulator/index.js";
import { runSlack } from "../../src/slack/run.js";
import { memoryLogger } from "../fakes/memory-logger.js";
import { slashCommand } from "../fakes/payloads.js";
import { commandBody, signedPost } from "../fakes/signed-request.js";
import { FakeSlackApi } from "../fakes/slack-api-server.js";

const SECRET = "run-test-signing-secret";

describe("runSlack (the process's Slack branch)", () => {
  let sim: Simulator;
  let fake: FakeSlackApi;
  let dir: string;

  beforeAll(async () => {
    sim = await startSimulator({ arrayName: "lab-1", scenario: "demo" });
    fake = await FakeSlackApi.start();
    dir = mkdtempSync(join(tmpdir(), "run-slack-"));
    writeFileSync(join(dir, "ca.pem"), sim.ca);
  });
  afterAll(async () => {
    await fake.close();
    await sim.close();
  });

  it("serves commands, posts audit lines, and on SIGTERM stops and logs out of the arrays", async () => {
    const yaml = [
      "arrays:",
      "  - name: lab-1",
      `    address: ${sim.url}`,
      "    api_token_env: LAB_TOKEN",
      "    ca_file: ca.pem",
      "access:",
      "  viewer: { users: [U1] }",
      "audit_channel: CAUDIT",
      "slack:",
      "  port: 0",
      "  channelIntervalMs: 0",
    ].join("\n");
    const loaded = parseConfigText(yaml, {
      source: join(dir, "bot.yml"),
      env: {
        LAB_TOKEN: DEFAULT_API_TOKEN,
        SLACK_BOT_TOKEN: "xoxb-run",
        SLACK_SIGNING_SECRET: SECRET,
        SLACK_API_URL: fake.apiUrl,
      },
      readFile: (p) => (p.endsWith("ca.pem") ? sim.ca : ""),
      baseDir: dir,
    });
    expect(loaded.slack?.mode).toBe("http");
    const log = memoryLogger();
    const signals = new EventEmitter();
    const started = log.waitFor((l) => l["msg"] === "slack app started");
    const hooks: string[] = [];
    const done = runSlack(loaded, {
      logger: log.logger,
      signals,
      onStarted: (ports) => {
        hooks.push(`started:${typeof ports.chat.post}`);
      },
      onStop: async () => {
        hooks.push("stopped");
      },
      buildCore: ({ identity, store, audit }) => {
        const pool = createArrayPool(loaded.arrays, { logger: log.logger });
        const pipeline = createPipeline({
          registry: createRegistry(RESOURCES),
          pool,
          config: loaded.config,
          identity,
          store,
          audit,
          logger: log.logger,
          now: Date.now,
        });
        return { pipeline, pool };
      },
    });
    const port = (await started)["port"] as number;

    const res = await signedPost(
      `http://127.0.0.1:${port}/slack/events`,
      commandBody(slashCommand({ text: "fs list", responseUrl: fake.responseUrl("run-1") })),
      { secret: SECRET },
    );
    expect(res.status).toBe(200);
    const answer = await fake.waitForResponse((r) => r.id === "run-1");
    expect(JSON.stringify(answer.body["blocks"])).toContain("file systems on array lab-1");
    const audit = await fake.waitForCall("chat.postMessage", (c) => c.args["channel"] === "CAUDIT");
    expect(JSON.stringify(audit.args["blocks"])).toContain(
      "`fs.list` allowed for alice in <#C1> on lab-1: ok",
    );

    const logoutsBefore = sim.control.stats().requests["POST /api/logout"] ?? 0;
    signals.emit("SIGTERM");
    expect(await done).toBe(0);
    expect(hooks).toEqual(["started:function", "stopped"]);
    expect(sim.control.stats().requests["POST /api/logout"] ?? 0).toBeGreaterThan(logoutsBefore);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });
});
