/**
 * Hostile names from the array (issue 22 point 7), rendered by both faces from the real pipeline's answers:
 * line breaks, carriage returns, tabs, terminal escape sequences and bidi overrides in a name never start a
 * row or a line of their own, move a cursor or colour a terminal, in a table cell, a header, a button or a
 * section; and headers stay within Slack's 150 characters.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Message } from "../../src/core/presentation/message.js";
import { renderText } from "../../src/local/text-render.js";
import { blankFileSystem } from "../../src/simulator/models/file-system.js";
import { toSlack } from "../../src/slack/blocks.js";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";

const FORGED = "✅ Approved by alice";
const NAMES = {
  newline: `home\n${FORGED}`,
  cr: `logs\r${FORGED}`,
  tab: "tab\tname",
  escape: "esc\u001b[2J\u001b[31mred\u001b]0;owned\u0007",
  bidi: "evil\u202Etxt.exe",
  long: `${"L".repeat(200)}<!channel>`,
};
/** What acts on a screen or splits a line: none of it may come out of either face. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters is the point
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Every string in a payload, with the keys whose values are one-line slots. */
function strings(v: unknown, key = ""): { key: string; text: string }[] {
  if (typeof v === "string") return [{ key, text: v }];
  if (Array.isArray(v)) return v.flatMap((x) => strings(x, key));
  if (v === null || typeof v !== "object") return [];
  return Object.entries(v).flatMap(([k, x]) => strings(x, k === "text" && key ? key : k));
}

describe("hostile names from the array, through both faces", () => {
  let h: Harness;
  const answers: Message[] = [];
  beforeAll(async () => {
    h = await startHarness({ config: { channels: { default_array: "lab-1" } } });
    const s = h.sims.get("lab-1")?.state;
    if (!s) throw new Error("no simulator");
    for (const name of Object.values(NAMES))
      s.fileSystems.set(name, blankFileSystem(s.newId(), name, s.clock()));
    const quoted = (n: string) => `'${n.replace(/'/g, "")}'`;
    for (const text of [
      "fs list",
      `fs show ${quoted(NAMES.newline)}`,
      `fs show ${quoted(NAMES.escape)}`,
      `fs show ${quoted(NAMES.long)}`,
      `fs destroy ${quoted(NAMES.long)}`,
      `fs destroy ${quoted(NAMES.newline)}`,
    ]) {
      answers.push(...messagesOf(await h.run("alice", text)));
    }
  });
  afterAll(() => h?.close());

  test("the answers name the hostile objects (the test reaches them)", () => {
    const all = JSON.stringify(answers);
    expect(all).toContain("L".repeat(100));
    expect(all).toContain("red");
    expect(all).toContain("Approved by alice");
  });

  test("console: no escape sequence, no forged line", () => {
    for (const m of answers) {
      const out = renderText(m).text;
      expect(out).not.toMatch(ACTIVE);
      for (const line of out.split("\n")) expect(line.startsWith(FORGED)).toBe(false);
    }
  });

  test("Slack: no control character anywhere, one-line slots stay one line, headers fit", () => {
    for (const m of answers) {
      const payload = toSlack(m);
      for (const { key, text } of strings({ text: payload.text, blocks: payload.blocks })) {
        expect(text, key).not.toMatch(ACTIVE);
      }
      const json = JSON.stringify(payload.blocks);
      for (const header of json.matchAll(
        /"type":"header","text":\{"type":"plain_text","text":"((?:[^"\\]|\\.)*)"/g,
      )) {
        const text = JSON.parse(`"${header[1]}"`) as string;
        expect(text.length).toBeLessThanOrEqual(150);
        expect(text).not.toContain("\n");
      }
      for (const cell of json.matchAll(/"type":"raw_text","text":"((?:[^"\\]|\\.)*)"/g)) {
        expect(JSON.parse(`"${cell[1]}"`)).not.toContain("\n");
      }
      for (const pre of json.matchAll(
        /"rich_text_preformatted","elements":\[\{"type":"text","text":"((?:[^"\\]|\\.)*)"/g,
      )) {
        for (const line of (JSON.parse(`"${pre[1]}"`) as string).split("\n"))
          expect(line.startsWith(FORGED)).toBe(false);
      }
      // Within a section, a line break from a name must not open a line that reads as the bot's own.
      for (const { text } of strings(payload.blocks)) {
        for (const line of text.split("\n")) expect(line.trimStart().startsWith(FORGED)).toBe(false);
      }
    }
  });
});

describe("names no array takes are refused before anything is sent", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ config: { channels: { default_array: "lab-1" } } });
  });
  afterAll(() => h?.close());

  const writes = () => {
    const stats = h.sims.get("lab-1")?.control.stats();
    return Object.entries(stats?.requests ?? {})
      .filter(([k]) => !k.startsWith("GET ") && !k.includes("/login") && !k.includes("/logout"))
      .reduce((n, [, c]) => n + c, 0);
  };

  test.each([
    ["fs create a.b 1T", "arrays take no such file system name: use 1-63 characters without ',', '/', '.'"],
    ["fs create a/b 1T", "arrays take no such file system name"],
    [`fs create ${"L".repeat(64)} 1T`, "arrays take no such file system name"],
    [
      "bucket create Bad_Bucket --account acme",
      "arrays take no such bucket name: use 3-63 lowercase letters",
    ],
    ["object-account create 'a b'", "arrays take no such account name"],
  ])("%s", async (text, says) => {
    const before = writes();
    const answer = textOf(await h.run("alice", text));
    expect(answer).toContain(says);
    expect(writes()).toBe(before);
  });
});
