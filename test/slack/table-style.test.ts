/**
 * Lists in Slack messages, through Bolt's real HTTP receiver and the fake Web API (which checks the blocks as
 * Slack documents them): Slack's data table by default, sizes as numbers it sorts, the configured page size;
 * `slack.tables: table` for a workspace without data tables, and page sizes Slack refuses refused at start-up.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseSlackSection } from "../../src/config/slack.js";
import { slashCommand } from "../fakes/payloads.js";
import { type Harness, startHarness } from "./helpers/harness.js";
import { TestPipeline } from "./helpers/test-pipeline.js";

let h: Harness | undefined;
afterEach(async () => h?.stop());

async function listAnswer(overrides: Parameters<typeof startHarness>[2]) {
  h = await startHarness("http", { pipeline: ({ identity }) => new TestPipeline(identity) }, overrides);
  const payload = slashCommand({ text: "list 30", responseUrl: h.fake.responseUrl(`r-${Math.random()}`) });
  await h.driver.command(payload);
  const answer = await h.fake.waitForResponse((r) => payload.response_url?.endsWith(r.id) ?? false);
  return answer.body["blocks"] as Record<string, unknown>[];
}

describe("tables in Slack", () => {
  it("a list is a data table: a caption, numbers that sort as numbers, the configured page size", async () => {
    const blocks = await listAnswer({ tablePageSize: 10 });
    const table = blocks.find((b) => b["type"] === "data_table") as {
      caption: string;
      page_size: number;
      rows: Record<string, unknown>[][];
    };
    expect(table.caption).toBe("File systems (30 rows)");
    expect(table.page_size).toBe(10);
    expect(table.rows).toHaveLength(31);
    expect(table.rows[1]?.[1]).toEqual({ type: "raw_number", value: 2 ** 40, text: "1 TiB" });
    expect(h?.fake.rejectedResponses).toEqual([]);
  });

  it("`tables: table` sends the plain table block", async () => {
    const blocks = await listAnswer({ tables: "table" });
    expect(blocks.map((b) => b["type"])).toContain("table");
    expect(blocks.map((b) => b["type"])).not.toContain("data_table");
  });

  it("a page size Slack does not take is refused at start-up", () => {
    const base = { mode: "http", botToken: "xoxb-x", signingSecret: "0123456789abcdef" };
    for (const tablePageSize of [0, 101])
      expect(() => parseSlackSection({ ...base, tablePageSize })).toThrow(/tablePageSize/);
    expect(parseSlackSection({ ...base, tablePageSize: 100 }).tablePageSize).toBe(100);
    expect(parseSlackSection(base).tables).toBe("data_table");
  });
});
