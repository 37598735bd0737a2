/**
 * Every list's table shows the columns its CSV has, in the same order (issue 46). Each `list` of the registry
 * (read from it, not typed here) runs with --public through Slack's face (Bolt's real HTTP receiver, the pipeline over two demo
 * simulators, the fake Web API) with `table_rows: 1`, so any list of two rows or more comes with its CSV; a list
 * that fans out runs on both arrays, so a list of one row per array has two. The data table's header row is then
 * compared with the first line of the CSV the bot uploaded. A list the demo has nothing in answers with a sentence,
 * no table and no CSV: there is nothing to compare, and it is counted apart.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { slashCommand } from "../fakes/payloads.js";
import { type PipelineWorld, startPipelineWorld } from "./helpers/pipeline-world.js";

const LISTS = createRegistry(RESOURCES)
  .all()
  .filter((e) => e.command.verb === "list")
  // The 2.x-only nouns list nothing on the 1.x demo; test/commands/examples-coverage-2x.test.ts runs them on 2.x.
  .filter((e) => !e.resource.rest2Only)
  .map((e, i) => {
    const line = (e.command.examples ?? []).find((x) => x.startsWith(e.path)) ?? e.path;
    const global = e.command.scope === "global";
    return {
      id: e.id,
      // Both arrays where the list may fan out: one row on each is two rows.
      line: `${global || e.command.fanOut === "refuse" || line.includes("--array") ? line : `${line} --array all`} --public`,
      user: e.command.role === "admin" ? "UADMIN" : "UBOB",
      // Answered in a channel of its own: the CSV goes there, paced per channel, with no direct message to open.
      channel: `CLIST${i}`,
    };
  });

/** The cells of one CSV line (RFC 4180: quoted cells may hold commas and doubled quotes). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  const re = /(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g;
  for (const m of line.matchAll(re)) cells.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : (m[2] ?? ""));
  return cells;
}

type Cell = { text?: string };

describe("every list's table shows its CSV's columns, in the same order", () => {
  let world: PipelineWorld;
  const compared: string[] = [];
  const empty: string[] = [];

  beforeAll(async () => {
    world = await startPipelineWorld(
      ["UBOB"],
      undefined,
      {
        access: { default_role: "viewer", operator: { users: ["UBOB"] }, admin: { users: ["UADMIN"] } },
        table_rows: 1,
      },
      undefined,
      ["lab-2"],
    );
  });

  afterAll(async () => world?.close());

  it("reads its lists from the registry", () => {
    expect(LISTS.length).toBeGreaterThan(40);
  });

  it.each(LISTS)("$line", async ({ id: commandId, line, user, channel }) => {
    const { h } = world;
    const id = `csv-${commandId}`;
    await h.driver.command(
      slashCommand({ text: line, userId: user, channelId: channel, responseUrl: h.fake.responseUrl(id) }),
    );
    const answer = await h.fake.waitForAnswer(id);
    const blocks = (answer.body["blocks"] ?? []) as { type: string; rows?: Cell[][] }[];
    const table = blocks.find((b) => b.type === "data_table" || b.type === "table");
    if (table === undefined) {
      expect(String(answer.body["text"])).toMatch(/^No .+\.?$/);
      empty.push(line);
      return;
    }
    const header = (table.rows?.[0] ?? []).map((c) => c.text ?? "");
    const complete = await h.fake.waitForCall(
      "files.completeUploadExternal",
      (c) => c.args["channel_id"] === channel,
      1,
    );
    const fileId = (complete.args["files"] as { id: string }[])[0]?.id ?? "";
    const csv = h.fake.uploads.get(fileId)?.toString("utf8") ?? "";
    const [first = "", ...rest] = csv.split("\r\n").filter((l) => l !== "");
    expect(rest.length, "the CSV holds the rows the table does not show").toBeGreaterThan(1);
    expect(header.length).toBeGreaterThan(0);
    expect(header).toEqual(csvCells(first));
    compared.push(line);
  });

  it("compared every list that had rows, and most lists had some", () => {
    expect(compared.length + empty.length).toBe(LISTS.length);
    expect(compared.length).toBeGreaterThan(LISTS.length - 8);
  });
});
