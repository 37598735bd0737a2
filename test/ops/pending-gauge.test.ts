/**
 * The pending-approvals gauge as the process wires it (src/slack/run.ts: pendingCount reads the pending store
 * at scrape time): an approval request made through the app shows as 1 in /metrics, and 0 once approved.
 */
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
import { httpDriver } from "../fakes/drivers.js";
import { memoryLogger } from "../fakes/memory-logger.js";
import { blockAction, slashCommand } from "../fakes/payloads.js";
import { FakeSlackApi } from "../fakes/slack-api-server.js";

const SECRET = "pending-gauge-signing-secret";

describe("the pending-approvals gauge, wired to the pending store", () => {
  let sim: Simulator;
  let fake: FakeSlackApi;
  let dir: string;

  beforeAll(async () => {
    sim = await startSimulator({ arrayName: "lab-1", scenario: "demo" });
    fake = await FakeSlackApi.start();
    dir = mkdtempSync(join(tmpdir(), "pending-gauge-"));
    writeFileSync(join(dir, "ca.pem"), sim.ca);
  });
  afterAll(async () => {
    await fake.close();
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("counts an approval request made through the app, and drops it once approved", async () => {
    const yaml = [
      "arrays:",
      "  - name: lab-1",
      `    address: ${sim.url}`,
      "    api_token_env: LAB_TOKEN",
      "    ca_file: ca.pem",
      "access:",
      "  operator: { users: [UBOB] }",
      "  admin: { users: [UALICE] }",
      "store:",
      "  kind: memory",
      "slack:",
      "  port: 0",
      "  channelIntervalMs: 0",
    ].join("\n");
    const loaded = parseConfigText(yaml, {
      source: join(dir, "bot.yml"),
      env: {
        LAB_TOKEN: DEFAULT_API_TOKEN,
        SLACK_BOT_TOKEN: "xoxb-gauge",
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
      buildCore: ({ identity, store, audit, onArrayCall }) => {
        const pool = createArrayPool(loaded.arrays, { logger: log.logger, onCall: onArrayCall });
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
    const base = `http://127.0.0.1:${port}`;
    const driver = httpDriver(base, SECRET);
    const gauge = async () =>
      Number(
        /^array_chatops_pending_approvals (\d+)$/m.exec(await (await fetch(`${base}/metrics`)).text())?.[1],
      );

    expect(await gauge()).toBe(0);

    // A shrink below usage needs an approval: the request is stored and its card posted.
    await driver.command(
      slashCommand({ text: "fs resize builds 9T", userId: "UBOB", responseUrl: fake.responseUrl("req") }),
    );
    const post = await fake.waitForCall("chat.postMessage", (c) => c.args["channel"] === "C1");
    const ts = [...fake.messages.values()].find((m) => m.channel === "C1")?.ts ?? "";
    expect(await gauge()).toBe(1);

    const blocks = post.args["blocks"] as {
      type: string;
      elements?: { action_id: string; value: string }[];
    }[];
    const approve = blocks
      .flatMap((b) => (b.type === "actions" ? (b.elements ?? []) : []))
      .find((e) => e.action_id.endsWith("approve"));
    expect(approve).toBeDefined();
    await driver.interactive(
      blockAction({
        actionId: approve?.action_id ?? "",
        value: approve?.value ?? "",
        userId: "UALICE",
        messageTs: ts,
        responseUrl: fake.responseUrl("approve"),
      }),
    );
    const update = await fake.waitForCall("chat.update", (c) => c.args["ts"] === ts);
    expect(JSON.stringify(update.args["blocks"])).toContain("Resized *builds* on lab-1");
    expect(await gauge()).toBe(0);

    signals.emit("SIGTERM");
    expect(await done).toBe(0);
  });
});
