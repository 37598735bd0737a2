/**
 * One trace id follows a request (issue 40): an approved change, typed in Slack through Bolt's real HTTP receiver
 * and approved by another person's click, carries its command's id in the command's log line, its pending record,
 * the click's and the execution's audit records, every array call's log line (retries included) and the final
 * audit record. docs/tracing.md shows the same search on a real log.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { memoryLogger } from "../fakes/memory-logger.js";
import { slashCommand } from "../fakes/payloads.js";
import { clickCard } from "./helpers/clicks.js";
import { type PipelineWorld, startPipelineWorld } from "./helpers/pipeline-world.js";

let world: PipelineWorld;
const log = memoryLogger("debug");

beforeAll(async () => {
  world = await startPipelineWorld(["UBOB", "UOLGA"], undefined, {}, log.logger);
});
afterAll(async () => world?.close());

it("the same trace id is on the command, its pending record, the click, the execution and every array call", async () => {
  const { h } = world;
  const trigger = "trig-trace-1";
  const posts = h.fake.callsOf("chat.postMessage").length;
  await h.driver.command(
    slashCommand({
      text: "fs resize scratch 4T",
      userId: "UBOB",
      triggerId: trigger,
      responseUrl: h.fake.responseUrl("trace-cmd"),
    }),
  );
  const card = await h.fake.waitForCall("chat.postMessage", () => true, posts + 1);
  const pendingId = await clickCard(h, "UOLGA", card, "approve", "trace-click");
  await h.fake.waitForUpdate((u) => JSON.stringify(u.blocks).includes("approved by"));
  expect(world.sim.state.fileSystems.get("scratch")?.provisioned).toBe(4 * 2 ** 40);

  // The pending record keeps the trigger's id as its request id: the trace the click resumes.
  expect((await world.store.get(pendingId))?.requestId).toBe(trigger);
  // Audit: the request, the click and the execution, all on one trace.
  const mine = world.audits.filter((a) => a.pendingId === pendingId || a.id === trigger);
  expect(mine.map((a) => a.decision).sort()).toEqual(["approved", "executing", "pending"]);
  expect(new Set(mine.map((a) => a.trace))).toEqual(new Set([trigger]));
  // Log lines: every array call the change made (the reads of its impact, its recheck and its PATCH) is on it.
  const calls = log.lines.filter((l) => l["msg"] === "array call" && l["trace"] === trigger);
  expect(calls.map((l) => l["method"])).toContain("PATCH");
  expect(calls.filter((l) => l["method"] === "GET").length).toBeGreaterThan(0);
  const patches = log.lines.filter((l) => l["msg"] === "array call" && l["method"] === "PATCH");
  expect(patches.every((l) => l["trace"] === trigger)).toBe(true);
  // And the audit lines the logger wrote for them.
  const audited = log.lines.filter((l) => typeof l["audit"] === "object" && l["trace"] === trigger);
  expect(audited.length).toBeGreaterThanOrEqual(3);
});
