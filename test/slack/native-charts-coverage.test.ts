/**
 * Every chart-bearing answer is drawn by Slack (issue 46), whichever command gives it: each example of every
 * read command of the registry (read from it, not typed here) runs through Bolt's real HTTP receiver and the
 * pipeline over a demo simulator, to the fake Slack Web API that validates data_visualization blocks as Slack
 * documents them. No answer falls back to a PNG (upload or "attached as ….png"), every answer's blocks are valid,
 * and the answers that do carry charts (forecast, performance, diagnose, …) are found among them, each chart
 * followed by its summary in words.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { blockKitViolations } from "../fakes/block-kit-rules.js";
import { slashCommand } from "../fakes/payloads.js";
import { type PipelineWorld, startPipelineWorld } from "./helpers/pipeline-world.js";

const READS = createRegistry(RESOURCES)
  .all()
  .filter((e) => !e.command.impact)
  .flatMap((e) =>
    (e.command.examples ?? []).map((line) => ({
      line,
      user: e.command.role === "admin" ? "UADMIN" : e.command.role === "operator" ? "UBOB" : "UCAROL",
    })),
  );

type Block = { type: string; elements?: { text?: string }[] };

describe("every chart-bearing answer is drawn by Slack, none falls back to a PNG", () => {
  let world: PipelineWorld;
  const drawn: string[] = [];

  beforeAll(async () => {
    world = await startPipelineWorld(["UBOB"], undefined, {
      access: { default_role: "viewer", operator: { users: ["UBOB"] }, admin: { users: ["UADMIN"] } },
    });
  });
  afterAll(async () => world?.close());

  it("reads its commands' examples from the registry", () => {
    expect(READS.length).toBeGreaterThan(100);
  });

  it.each(READS)("$line", async ({ line, user }) => {
    const { h } = world;
    const id = `chart-${line.replace(/\W+/g, "-")}-${user}`;
    await h.driver.command(slashCommand({ text: line, userId: user, responseUrl: h.fake.responseUrl(id) }));
    const reply = await h.fake.waitForAnswer(id);
    expect(reply.errors, "Slack would refuse these blocks").toBeUndefined();
    const blocks = (reply.body["blocks"] ?? []) as Block[];
    expect(blockKitViolations(blocks)).toEqual([]);
    expect(JSON.stringify(blocks)).not.toMatch(/attached as [^"]*\.png/);
    const charts = blocks.flatMap((b, i) => (b.type === "data_visualization" ? [i] : []));
    for (const i of charts) expect(blocks[i + 1]?.type, "the chart's summary in words").toBe("context");
    if (charts.length > 0) drawn.push(line);
  });

  it("uploaded no PNG, and found the answers that carry charts", () => {
    const pngs = world.h.fake
      .callsOf("files.getUploadURLExternal")
      .filter((c) => String(c.args["filename"]).endsWith(".png"));
    expect(pngs).toEqual([]);
    // Forecasts, performance over a window and diagnoses each draw at least one.
    expect(drawn.some((l) => l.startsWith("space forecast"))).toBe(true);
    expect(drawn.some((l) => l.startsWith("perf") && l.includes("--last"))).toBe(true);
    expect(drawn.some((l) => l.startsWith("diagnose"))).toBe(true);
  });
});
