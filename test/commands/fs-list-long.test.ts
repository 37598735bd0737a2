/**
 * Honest long answers: a listing longer than one CSV (10,000 rows per array) says exactly which rows the
 * attachment holds and the command that lists the next ones; following it reaches every file system once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Effect } from "../../src/core/pipeline-types.js";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";

const N = 25_000;

describe("fs list longer than one CSV", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ arrays: [{ name: "big-1", scenario: { scale: { fileSystems: N } } }] });
  });
  afterAll(() => h?.close());

  const csvNames = (effects: Effect[]) => {
    const csv = String(messagesOf(effects)[0]?.attachments?.[0]?.content ?? "");
    return csv
      .trimEnd()
      .split("\r\n")
      .slice(1)
      .map((line) => line.split(",")[0] ?? "");
  };
  const nextCommand = (effects: Effect[]) =>
    /For the next ones: `\/array (fs list[^`]*)`/.exec(textOf(effects))?.[1];

  it("says which rows the CSV holds, and the next command reaches every file system once", async () => {
    const seen = new Set<string>();
    let text: string | undefined = "fs list";
    const notes: string[] = [];
    for (let i = 0; text !== undefined && i < 5; i++) {
      const effects = await h.run("carol", text);
      const names = csvNames(effects);
      for (const n of names) seen.add(n);
      notes.push(textOf(effects).match(/The attached CSV holds rows [^.]*\./)?.[0] ?? "");
      text = nextCommand(effects);
      if (i === 0) expect(names).toHaveLength(10_000);
    }
    expect(notes).toEqual([
      "The attached CSV holds rows 1–10,000 of 25,000 (at most 10,000 per array).",
      "The attached CSV holds rows 10,001–20,000 of 25,000 (at most 10,000 per array).",
      "The attached CSV holds rows 20,001–25,000 of 25,000 (at most 10,000 per array).",
    ]);
    expect(seen.size).toBe(N);
  });

  it("keeps the name filter and sort in the next command", async () => {
    const effects = await h.run("carol", "fs list --name 'fs-*' --sort used-");
    expect(nextCommand(effects)).toBe("fs list --name 'fs-*' --sort used- --array big-1 --start 10000");
  });
});
