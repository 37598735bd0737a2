/**
 * Structured results cover every list and show (issue 46): each `list` and `show` of the registry (read from it,
 * not typed here) runs its own first example on the demo arrays, and its answer carries data, not only text: a
 * list's every table gives each row's raw values under every column's key, a show gives its object (or, where it
 * answers with a table, that table's raw values). A list the demo has nothing in answers with a sentence: there
 * is nothing to carry.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import type { Message } from "../../src/core/presentation/message.js";
import { type Harness, messagesOf } from "../core/harness.js";
import { startDemoHarness } from "./demo-examples.js";

const READS = createRegistry(RESOURCES)
  .all()
  // A 2.x-only noun has nothing to do on the 1.x demo: test/commands/examples-coverage-2x.test.ts runs it on 2.x.
  .filter((e) => !e.resource.rest2Only)
  .filter((e) => !e.command.impact && (e.command.verb === "list" || e.command.verb === "show"))
  .map((e) => ({
    verb: e.command.verb,
    // The command's first example that names what it reads (a bare `history show` asks for a noun).
    line:
      (e.command.examples ?? []).find((x) => x.startsWith(`${e.path} `)) ??
      (e.command.examples ?? []).find((x) => x.startsWith(e.path)) ??
      // A resource's default verb is typed without it (`history fs builds`).
      (e.resource.defaultVerb === e.command.verb ? e.command.examples?.[0] : undefined) ??
      e.path,
    user: e.command.role === "admin" ? "alice" : "bob",
  }));

type TableBlock = Extract<Message["blocks"][number], { type: "table" }>;
const tablesOf = (m: Message) => m.blocks.filter((b): b is TableBlock => b.type === "table");

/** Every row has raw values, and each column's key is among them. */
function expectValues(t: TableBlock, line: string) {
  expect(t.values, `${line}: its table's raw values`).toBeDefined();
  expect(t.values?.length).toBe(t.rows.length);
  for (const v of t.values ?? [])
    for (const c of t.columns) expect(Object.hasOwn(v, c.key), `${line}: column ${c.key}`).toBe(true);
}

describe("every list and show carries structured data", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startDemoHarness();
  });
  afterAll(async () => h?.close());

  it("reads its lists and shows from the registry", () => {
    expect(READS.filter((r) => r.verb === "list").length).toBeGreaterThan(40);
    expect(READS.filter((r) => r.verb === "show").length).toBeGreaterThan(30);
  });

  it.each(READS)("$line", async ({ verb, line, user }) => {
    const answer = messagesOf(await h.run(user, line)).at(-1);
    if (!answer) throw new Error(`${line}: no answer`);
    expect(answer.error, `${line}: ${answer.text}`).toBeUndefined();
    const tables = tablesOf(answer);
    if (verb === "list") {
      if (tables.length === 0) expect(answer.text).toMatch(/^No .+/);
      for (const t of tables) expectValues(t, line);
      return;
    }
    if (answer.object) {
      expect(typeof answer.object.name).toBe("string");
      for (const key of Object.keys(answer.object.display))
        expect(Object.hasOwn(answer.object.values, key), `${line}: ${key}`).toBe(true);
      return;
    }
    expect(tables.length, `${line}: neither an object nor a table`).toBeGreaterThan(0);
    for (const t of tables) expectValues(t, line);
  });
});
