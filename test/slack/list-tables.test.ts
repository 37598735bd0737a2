/**
 * Every `list` of the registry (read from it, not typed here), run on the demo array through Slack's face:
 * Bolt's real HTTP receiver, the real pipeline over the simulator, the answer posted to the fake Slack Web API's
 * response URL, which refuses blocks Slack would refuse. Each answer is accepted and is a valid `data_table`
 * (a caption, a header and 1–100 rows, every row as wide as the header, page_size 1–100 and at most the
 * configured one) or, for a list the demo has nothing in, the documented fallback: a sentence saying so, no table.
 * Run as an operator, so the lists that offer Create / Change carry their menu too, and it is validated as well.
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
  // The command's own first example when it has one (a list that needs an argument shows it), else the path.
  .map((e) => ({
    id: e.id,
    line: (e.command.examples ?? []).find((x) => x.startsWith(e.path)) ?? e.path,
    // An admin-only list (the break-glass review list) is read by an admin; every other by the operator.
    user: e.command.role === "admin" ? "UADMIN" : "UBOB",
    // A list of the bot's own records (grants, break-glass) covers no array.
    global: e.command.scope === "global",
  }));

type Block = Record<string, unknown>;

describe("every list answers in Slack as a data table, or the fallback when empty", () => {
  let world: PipelineWorld;

  beforeAll(async () => {
    world = await startPipelineWorld(["UBOB"], undefined, {
      access: { default_role: "viewer", operator: { users: ["UBOB"] }, admin: { users: ["UADMIN"] } },
    });
  });

  afterAll(async () => world?.close());

  it("reads its lists from the registry", () => {
    expect(LISTS.length).toBeGreaterThan(40);
  });

  it.each(LISTS)("$line", async ({ id: commandId, line, user, global }) => {
    const { h } = world;
    const id = `list-${commandId}`;
    await h.driver.command(slashCommand({ text: line, userId: user, responseUrl: h.fake.responseUrl(id) }));
    const answer = await h.fake.waitForAnswer(id);
    expect(answer.errors, "Slack would refuse these blocks").toBeUndefined();
    const blocks = (answer.body["blocks"] ?? []) as Block[];
    const tables = blocks.filter((b) => b["type"] === "data_table" || b["type"] === "table");
    if (tables.length === 0) {
      // The fallback: nothing to list, said in a sentence.
      expect(String(answer.body["text"])).toMatch(global ? /^No .+\.$/ : /^No .+ on array lab-1\.?$/);
      return;
    }
    expect(tables).toHaveLength(1);
    const t = tables[0] as { type: string; caption?: unknown; page_size?: unknown; rows: Block[][] };
    expect(t.type).toBe("data_table");
    expect(typeof t.caption === "string" && t.caption.trim() !== "").toBe(true);
    expect(t.rows.length).toBeGreaterThanOrEqual(2);
    expect(t.rows.length).toBeLessThanOrEqual(101);
    const width = t.rows[0]?.length ?? 0;
    expect(width).toBeGreaterThan(0);
    expect(t.rows.every((r) => r.length === width)).toBe(true);
    expect(Number.isInteger(t.page_size)).toBe(true);
    expect(t.page_size as number).toBeGreaterThanOrEqual(1);
    expect(t.page_size as number).toBeLessThanOrEqual(Math.min(100, h.config.tablePageSize));
  });
});
