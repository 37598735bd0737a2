/**
 * Honest long answers: `fs list` on one array longer than the rows kept in memory (10,000) streams every row,
 * page by page, into one CSV file that goes along as the attachment; a fan-out, whose per-array files cannot be
 * one attachment, says exactly which rows its CSV holds; `--start` and `--limit` answers say which rows they hold
 * and the command for the next ones.
 */
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Effect } from "../../src/core/context/pipeline-types.js";
import { isSpooled, type SpooledFile } from "../../src/core/presentation/message.js";
import { removeSpooled } from "../../src/core/presentation/spool.js";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";

const N = 25_000;

describe("fs list longer than the rows kept in memory", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      arrays: [
        { name: "big-1", scenario: { scale: { fileSystems: N } } },
        { name: "big-2", scenario: { scale: { fileSystems: 12_000 } } },
      ],
      // Both arrays must answer in full: on a loaded machine listing 25,000 file systems can outlast the 10 s
      // default, and the late array would be left out of the CSV.
      config: { fan_out_deadline: "5m" },
    });
  });
  // Nothing sends these answers, so nothing removes their spooled files: the test does.
  const spooled: SpooledFile[] = [];
  afterAll(async () => {
    for (const f of spooled) await removeSpooled(f);
    await h?.close();
  });

  const csvOf = (effects: Effect[]) => {
    const content = messagesOf(effects)[0]?.attachments?.[0]?.content ?? "";
    if (isSpooled(content)) spooled.push(content);
    return content;
  };
  const csvLines = (effects: Effect[]) => {
    const content = csvOf(effects);
    const text = isSpooled(content) ? readFileSync(content.path, "utf8") : String(content);
    return text.trimEnd().split("\r\n").slice(1);
  };
  const note = (effects: Effect[]) => textOf(effects).match(/The (full list|attached CSV)[^\n]*/)?.[0];

  it("one array: every row streamed into one CSV file, and the answer says it is the full list", async () => {
    const effects = await h.run("carol", "fs list --array big-1");
    const content = csvOf(effects);
    expect(isSpooled(content)).toBe(true);
    const names = new Set(csvLines(effects).map((l) => l.split(",")[0]));
    expect(names.size).toBe(N);
    expect(note(effects)).toBe("The full list is attached as CSV.");
    expect(textOf(effects)).toContain("25,000 file systems on array big-1");
  });

  it("--start lists from there, and says which rows it holds", async () => {
    const effects = await h.run("carol", "fs list --array big-1 --start 20000");
    expect(csvLines(effects)).toHaveLength(5000);
    expect(note(effects)).toBe(
      "The attached CSV holds rows 20,001–25,000 of 25,000 (at most 10,000 per array).",
    );
  });

  it("--limit keeps rows in memory and names the command for the next ones, filter and sort included", async () => {
    const effects = await h.run("carol", "fs list --array big-1 --name 'fs-*' --sort used- --limit 10000");
    expect(csvLines(effects)).toHaveLength(10_000);
    expect(textOf(effects)).toContain(
      "For the next ones: `/array fs list --name 'fs-*' --sort used- --array big-1 --start 10000`",
    );
  });

  it("a fan-out says exactly which rows its CSV holds", async () => {
    const effects = await h.run("carol", "fs list --array all");
    expect(csvLines(effects)).toHaveLength(20_000);
    expect(note(effects)).toBe(
      "The attached CSV holds rows 1–20,000 of 37,000 (at most 10,000 per array). Narrow the list with --name, or list one array at a time.",
    );
    const content = csvOf(effects);
    expect(isSpooled(content)).toBe(false);
  });

  it("the spooled file is the transport's: it exists until sent", async () => {
    const content = csvOf(await h.run("carol", "fs list --array big-2"));
    expect(isSpooled(content) && existsSync(content.path)).toBe(true);
  });
});
