/**
 * `alert list` shows each alert's code (issue 46), the number an admin searches Pure's knowledge base with:
 * through Bolt's real receiver to the fake Slack Web API, the data table has a Code column beside the alert's
 * number whose cells are the simulator's alert codes.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { slashCommand } from "../fakes/payloads.js";
import { type PipelineWorld, startPipelineWorld } from "./helpers/pipeline-world.js";

type Cell = { text?: string };

describe("alert list in Slack", () => {
  let world: PipelineWorld;
  beforeAll(async () => {
    world = await startPipelineWorld([]);
  });
  afterAll(async () => world?.close());

  it("has a Code column with each alert's code", async () => {
    const { h, sim } = world;
    await h.driver.command(
      slashCommand({
        text: "alert list --state all",
        userId: "UVIEW",
        responseUrl: h.fake.responseUrl("alerts"),
      }),
    );
    const answer = await h.fake.waitForAnswer("alerts");
    expect(answer.errors).toBeUndefined();
    const table = ((answer.body["blocks"] ?? []) as { type: string; rows?: Cell[][] }[]).find(
      (b) => b.type === "data_table",
    );
    const [header = [], ...rows] = table?.rows ?? [];
    const labels = header.map((c) => c.text);
    const at = labels.indexOf("Code");
    expect(at).toBe(labels.indexOf("Alert") + 1);
    expect(rows.length).toBe(sim.state.alerts.size);
    const index = labels.indexOf("Alert");
    for (const row of rows) {
      const alert = sim.state.alerts.get(Number(row[index]?.text));
      expect(row[at]?.text).toBe(alert?.code === undefined ? "–" : String(alert.code));
    }
  });
});
