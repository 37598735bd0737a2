/**
 * A stop that always ends (issue 44): SIGTERM reaches the bot process while an approved change hangs on the array,
 * Slack's API takes requests and never answers, and Redis is stopped (SIGSTOP) all at once. The process exits
 * within `shutdown_grace`, its last lines name the change it cut off with its execution record, and once Redis
 * answers again the change is ended "interrupted" by the next executor's recovery, with the array read back.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { configSchema } from "../../src/config/schema.js";
import { createDurablePendingStore } from "../../src/core/approvals/pending-store-durable.js";
import { memoryAuditSink } from "../../src/core/audit/audit.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { createPipeline } from "../../src/core/pipeline/pipeline.js";
import { createArrayPool } from "../../src/flashblade/pool.js";
import { silentLogger } from "../../src/logger.js";
import { type Simulator, simulatedArrayConfig, startSimulator } from "../../src/simulator/index.js";
import { createExecutionLeases } from "../../src/store/execution-lease.js";
import { openStore } from "../../src/store/index.js";
import { cardButton } from "../fakes/card-buttons.js";
import { blockAction } from "../fakes/payloads.js";
import { FakeSlackApi } from "../fakes/slack-api-server.js";
import { requestCount } from "../helpers/wire.js";
import { type RedisServer, startRedis } from "../store/redis-server.js";
import { type BotProcess, buildBot, startBotProcess } from "./bot-process.js";

const GRACE_MS = 6_000;
let entry = "";
let dir = "";
let sim: Simulator;
let fake: FakeSlackApi;
let redis: RedisServer;
let bot: BotProcess | undefined;

beforeAll(async () => {
  entry = await buildBot("stop-deadline-test");
  dir = mkdtempSync(join(tmpdir(), "stop-deadline-"));
  sim = await startSimulator({ arrayName: "lab-1", scenario: "demo" });
  fake = await FakeSlackApi.start();
  redis = await startRedis();
}, 180_000);

afterAll(async () => {
  if (bot && bot.child.exitCode === null && bot.child.signalCode === null) bot.child.kill("SIGKILL");
  redis?.resume();
  sim?.control.clearFaults();
  await fake?.close();
  await sim?.close();
  await redis?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Polls `probe` until true; fails after `withinMs` (a bound, not a synchronisation sleep). */
async function until(what: string, probe: () => boolean, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const patches = () => requestCount(sim.control.stats(), "PATCH /api/1.12/file-systems");

describe("SIGTERM with a hung array call, an unreachable Slack and a hung Redis at once", () => {
  test("exits within shutdown_grace and the change it cut off ends interrupted, read back", async () => {
    bot = await startBotProcess({
      entry,
      dir,
      sim,
      fake,
      extraConfig: [
        `shutdown_grace: ${GRACE_MS / 1000}s`,
        "store:",
        "  kind: redis",
        `  address: 127.0.0.1:${redis.port}`,
        "  lease_ttl: 3s",
        "alerts: { enabled: false }",
      ],
    });
    const b = bot;
    // U2 asks for a shrink below usage (one approval needed); U3 approves; the PATCH hangs on the array.
    const inC1 = (c: { args: Record<string, unknown> }) => c.args["channel"] === "C1";
    expect(await b.command("fs resize builds 9T", "request", "U2")).toBe(200);
    const card = await fake.waitForCall("chat.postMessage", inC1);
    const ts = [...fake.messages.values()].filter((m) => m.channel === "C1").at(-1)?.ts ?? "";
    const approve = cardButton(card, "approve");
    sim.control.addLatency({ path: "/file-systems", method: "PATCH", ms: 120_000 });
    const click = blockAction({
      actionId: approve.action_id,
      value: approve.value,
      userId: "U3",
      messageTs: ts,
      responseUrl: fake.responseUrl("approve"),
    });
    expect(await b.interactive(click)).toBe(200);
    await until("the PATCH reached the array", () => patches() === 1, 10_000);

    fake.unreachable = true;
    redis.pause();
    const asked = Date.now();
    b.child.kill("SIGTERM");
    const { code, signal } = await b.exited;
    const took = Date.now() - asked;
    expect(signal).toBeNull();
    expect(code).toBe(1);
    expect(took).toBeLessThan(GRACE_MS);
    console.log(`SIGTERM to exit with everything hung: ${took} ms (grace ${GRACE_MS} ms)`);

    const lines = b.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    // The drain gave up on the hung change within its share of the grace; the deadline found a later step hung.
    expect(lines.find((l) => l["msg"] === "stopping with work still running")).toMatchObject({ left: 1 });
    expect(lines.find((l) => l["msg"] === "shutdown grace ran out: exiting now")).toMatchObject({
      level: "error",
    });
    const cut = lines.find((l) => String(l["msg"]).startsWith("change cut off by shutdown"));
    expect(cut).toMatchObject({
      level: "error",
      execution: { command: "fs resize builds 9T", array: "lab-1", approvedBy: ["U3"] },
    });
    const pendingId = String(cut?.["pendingId"]);

    // Redis answers again; the bot is gone. The next executor's recovery (its clock past the dead bot's lease)
    // ends the change interrupted and reads the array back for its card.
    redis.resume();
    sim.control.clearFaults();
    const later = () => Date.now() + 60_000;
    const store = openStore({ kind: "redis", host: "127.0.0.1", port: redis.port }, later);
    const pool = createArrayPool([simulatedArrayConfig("lab-1", sim)], { logger: silentLogger() });
    try {
      const pending = createDurablePendingStore(store);
      expect((await pending.get(pendingId))?.status).toBe("claimed");
      const pipeline = createPipeline({
        registry: createRegistry(RESOURCES),
        pool,
        config: configSchema.parse({ arrays: [{ name: "lab-1", address: sim.url, api_token_env: "T" }] }),
        identity: { groupsOf: async () => [], isRestricted: async () => false },
        store: pending,
        audit: memoryAuditSink(),
        logger: silentLogger(),
        now: later,
        executions: createExecutionLeases(store, {
          owner: "next",
          ttlMs: 3_000,
          exclusive: false,
          now: later,
        }),
      });
      const effects = await pipeline.recoverInterrupted();
      expect((await pending.get(pendingId))?.status).toBe("interrupted");
      expect(JSON.stringify(effects)).toContain("Now on lab-1: PATCH /file-systems builds");
    } finally {
      await pool.close();
      await store.close();
    }
  }, 120_000);
});
