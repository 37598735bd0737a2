/**
 * Where Slack cannot draw a chart, the PNG goes along (issue 46): past two data_visualization blocks in one
 * message (Slack's limit), on surfaces without the block (App Home, modals), and when the workspace is set to
 * `charts: png`. The answers are the real pipeline's over a simulated array; the Slack layer renders them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "../../src/core/presentation/message.js";
import { toSlack } from "../../src/slack/blocks.js";
import { type Harness, startHarness } from "../core/harness.js";
import { blockKitViolations } from "../fakes/block-kit-rules.js";

let h: Harness;
let forecast: Message;
let perf: Message;

async function answer(line: string): Promise<Message> {
  const reply = (await h.run("carol", line)).find((e) => e.kind === "reply");
  if (reply?.kind !== "reply") throw new Error(`no answer to ${line}`);
  return reply.later ? await reply.later : reply.message;
}

beforeAll(async () => {
  h = await startHarness();
  forecast = await answer("space forecast");
  perf = await answer("perf --last 24h");
});
afterAll(async () => h.close());

const drawn = (p: ReturnType<typeof toSlack>) =>
  p.blocks.filter((b) => b.type === "data_visualization").length;
const pngs = (p: ReturnType<typeof toSlack>) => p.files.filter((f) => f.contentType === "image/png").length;

describe("the PNG where Slack cannot draw the chart", () => {
  it("a message with three charts: the first two drawn by Slack, the third as a PNG", () => {
    // The performance answer's two charts, then the forecast's one, in one message.
    const both: Message = { text: "both", blocks: [...perf.blocks, ...forecast.blocks] };
    expect(
      both.blocks
        .filter((b) => b.type === "image")
        .flatMap((b) => (b.type === "image" ? (b.charts ?? []) : [])),
    ).toHaveLength(3);
    const p = toSlack(both);
    expect(blockKitViolations(p.blocks)).toEqual([]);
    expect(drawn(p)).toBe(2);
    expect(pngs(p)).toBe(1);
    expect(p.files.find((f) => f.contentType === "image/png")?.filename).toMatch(/^forecast-/);
  });

  it("the App Home and modals get the PNGs, as does a workspace set to png", () => {
    for (const surface of ["home", "modal"] as const) {
      const p = toSlack(forecast, surface);
      expect(drawn(p)).toBe(0);
      expect(pngs(p)).toBe(1);
    }
    const png = toSlack(forecast, "message", { kind: "data_table", pageSize: 20, charts: "png" });
    expect(drawn(png)).toBe(0);
    expect(pngs(png)).toBe(1);
    expect(drawn(toSlack(forecast))).toBe(1);
  });
});
