/**
 * Logs never stall the bot (issue 44): its stdout a pipe nobody reads, then a pipe whose reader is gone. Commands
 * keep being answered, the dropped lines are counted on /metrics, and SIGTERM still ends the process within
 * its grace period. Before, pino's synchronous destination slept and retried on EAGAIN: the bot froze.
 * The bot is a child process (bot-process.ts spawns it, from "node:child_process"): an integration file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Simulator, startSimulator } from "../../src/simulator/index.js";
import { FakeSlackApi } from "../fakes/slack-api-server.js";
import { type BotProcess, buildBot, startBotProcess } from "./bot-process.js";

const DROPPED = "array_chatops_log_lines_dropped_total";
/** Kubernetes' default termination grace period. */
const GRACE_MS = 30_000;
let entry = "";
let dir = "";
let sim: Simulator;
let fake: FakeSlackApi;
let bot: BotProcess | undefined;

beforeAll(async () => {
  entry = await buildBot("stalled-stdout-test");
  dir = mkdtempSync(join(tmpdir(), "stalled-stdout-"));
  sim = await startSimulator({ arrayName: "lab-1", scenario: "demo" });
  fake = await FakeSlackApi.start();
}, 180_000);

afterAll(async () => {
  if (bot && bot.child.exitCode === null && bot.child.signalCode === null) bot.child.kill("SIGKILL");
  await fake?.close();
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
/** One command through Bolt's receiver, answered through its response_url. */
async function answered(b: BotProcess): Promise<string> {
  const id = `cmd-${++n}`;
  expect(await b.command("fs list", id)).toBe(200);
  const answer = await fake.waitForResponse((r) => r.id === id);
  return JSON.stringify(answer.body);
}

describe("a bot whose stdout nobody reads", () => {
  test("keeps answering, counts what it drops, and stops within its grace on SIGTERM", async () => {
    bot = await startBotProcess({
      entry,
      dir,
      sim,
      fake,
      extraConfig: ["log_level: trace", "limits: { burst: 0, per_minute: 0 }", "log_buffer_bytes: 4096"],
    });
    const b = bot;
    b.stopReading();
    // Commands until the pipe (and the parent's read buffer) is full and the bot's own buffer overflows; each
    // one is answered meanwhile. The bound only keeps a broken build from looping for ever.
    for (let i = 0; i < 2000 && (await b.metric(DROPPED)) === 0; i++)
      expect(await answered(b)).toContain("on array lab-1");
    const full = await b.metric(DROPPED);
    expect(full).toBeGreaterThan(0);

    // The reader goes away altogether: writes now fail with EPIPE, and the bot goes on all the same.
    b.child.stdout?.destroy();
    for (let i = 0; i < 5; i++) expect(await answered(b)).toContain("on array lab-1");
    expect(await b.metric(DROPPED)).toBeGreaterThan(full);

    const asked = Date.now();
    b.child.kill("SIGTERM");
    const { code, signal } = await b.exited;
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(Date.now() - asked).toBeLessThan(GRACE_MS);
  }, 120_000);
});
