/**
 * Formula injection through CSV attachments (issue 22 point 7): every CSV the bot writes (a long listing's
 * attachment in memory, the spooled file of a huge one, the Slack face's table upload) turns a cell that a
 * spreadsheet would run into text with a leading apostrophe, and keeps plain numbers, negative ones too.
 */
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Message } from "../../src/core/presentation/message.js";
import { createCsvSpool, removeSpooled } from "../../src/core/presentation/spool.js";
import { toCsv as coreCsv, csvLine } from "../../src/core/presentation/table.js";
import { blankFileSystem } from "../../src/simulator/models/file-system.js";
import { toSlack } from "../../src/slack/blocks.js";
import { type Harness, messagesOf, startHarness } from "../core/harness.js";

/** Cells a spreadsheet runs, and what each must become. */
const HOSTILE: [string, string][] = [
  ['=HYPERLINK("http://evil","x")', '\'=HYPERLINK("http://evil","x")'],
  ["+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"],
  ["-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"],
  ["@SUM(1+1)*cmd|' /C calc'!A0", "'@SUM(1+1)*cmd|' /C calc'!A0"],
  ["\t=1+1", "'\t=1+1"],
  ["\r=1+1", "'\r=1+1"],
  [" =1+1", "' =1+1"],
  ["\uFF1D1+1", "'\uFF1D1+1"],
];
/** Cells left as they are: numbers keep their sign and meaning. */
const PLAIN = ["-5", "-1.5", "-2e3", "12", "0", "fs-1", "a=b"];

const unquote = (cell: string) => (cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell);
const cols = [{ key: "v", label: "value" }];

/** The cell as the Slack face uploads it: a table longer than a message shows goes along as a CSV file. */
function slackUploadCell(v: string): string {
  const rows = [{ v }, ...Array.from({ length: 200 }, (_, i) => ({ v: String(i) }))];
  const msg: Message = {
    text: "t",
    blocks: [{ type: "table", columns: cols, rows, totalRows: rows.length }],
  };
  const csv = toSlack(msg).files.find((f) => f.contentType === "text/csv");
  return String(csv?.content).split("\r\n")[1] ?? "";
}

describe("CSV cells a spreadsheet would run", () => {
  test.each([
    ["core table", (v: string) => coreCsv(cols, [{ v }]).split("\r\n")[1] ?? ""],
    ["Slack table upload", slackUploadCell],
    ["spooled line", (v: string) => csvLine(cols, { v })],
  ])("%s: formulas are quoted, numbers kept", (_name, cell) => {
    for (const [raw, want] of HOSTILE) expect(unquote(cell(raw)), JSON.stringify(raw)).toBe(want);
    for (const raw of PLAIN) expect(cell(raw), raw).toBe(raw);
  });

  test("the spooled file of a huge listing", async () => {
    const spool = await createCsvSpool(cols, "x.csv");
    for (const [raw] of HOSTILE) await spool.write({ v: raw });
    await spool.write({ v: "-7" });
    const file = await spool.finish();
    const text = await readFile(file.path, "utf8");
    await removeSpooled(file);
    for (const [, want] of HOSTILE) expect(text).toContain(want.replace(/"/g, '""'));
    expect(text).toContain("\r\n-7\r\n");
  });
});

describe("a listing's CSV attachment holding hostile names from the array", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ config: { channels: { default_array: "lab-1" } } });
    const s = h.sims.get("lab-1")?.state;
    if (!s) throw new Error("no simulator");
    for (const [name] of HOSTILE) s.fileSystems.set(name, blankFileSystem(s.newId(), name, s.clock()));
    // More rows than a message shows: the listing goes along as a CSV attachment.
    for (let i = 0; i < 60; i++) {
      const name = `filler-${i}`;
      s.fileSystems.set(name, blankFileSystem(s.newId(), name, s.clock()));
    }
  });
  afterAll(() => h?.close());

  test("every hostile name is a text cell", async () => {
    const [msg] = messagesOf(await h.run("carol", "fs list"));
    const csv = msg?.attachments?.find((a) => a.contentType === "text/csv");
    expect(typeof csv?.content).toBe("string");
    const text = String(csv?.content);
    for (const [, want] of HOSTILE) expect(text).toContain(want.replace(/"/g, '""'));
    for (const line of text.split("\r\n").slice(1))
      expect(unquote(line.split(",")[0] ?? "")).not.toMatch(/^[=+@]/);
  });
});
