/**
 * A REST 2.x list may answer 207: the items it could list, and `errors` for what it could not. The card shows
 * the items and one plain line per error (escaped), and the structured output carries them; nothing is dropped.
 * The simulator answers 207 for a `context_names` list with a context that is not the array, under
 * `allow_errors=true`, as a real array does. Through the real client over HTTPS.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { message } from "../../src/core/presentation/message.js";
import { withPartial } from "../../src/core/presentation/partial.js";
import { toolResult } from "../../src/mcp/output.js";
import { type Harness, messagesOf, startHarness } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ arrays: [{ name: "lab-2x", versions: "2.0-2.28" }] });
});
afterAll(async () => h.close());

const ask = (q: string) => h.run("carol", `api GET /file-systems?${q} --array lab-2x`);

describe("a partial answer (207)", () => {
  test("shows the items, a line per error, and carries the errors as data", async () => {
    const [m] = messagesOf(await ask("context_names=lab-2x,fb-gone&allow_errors=true"));
    if (m === undefined) throw new Error("no answer");
    // The items: the answer's JSON (file systems have nested fields, so the raw view shows them as code).
    const code = m.blocks.find((b) => b.type === "code");
    expect(code?.type === "code" && code.text).toContain('"name": "home"');
    expect(m.text).toMatch(/12 items/);
    const lines = m.blocks
      .filter((b) => b.type === "context")
      .map((b) => (b.type === "context" ? b.text.markup : ""));
    expect(lines.filter((l) => l.includes("fb-gone"))).toEqual([
      expect.stringMatching(/^⚠ lab-2x answered in part: fb-gone: Context 'fb-gone' does not exist/),
    ]);
    expect(m.text).toContain("fb-gone");
    expect(m.partial).toEqual([
      { array: "lab-2x", context: "fb-gone", message: expect.stringContaining("fb-gone") },
    ]);
    const structured = toolResult(m).structuredContent;
    expect(structured["partial"]).toEqual([
      { array: "lab-2x", context: "fb-gone", message: expect.stringContaining("fb-gone") },
    ]);
  });

  test("an error's text is the array's, escaped: it cannot become a mention or markup", async () => {
    const [m] = messagesOf(await ask(`context_names=${encodeURIComponent("<!channel>")}&allow_errors=true`));
    const lines = (m?.blocks ?? []).flatMap((b) => (b.type === "context" ? [b.text.markup] : []));
    const line = lines.find((l) => l.includes("answered in part"));
    expect(line).toContain("&lt;!channel&gt;");
    expect(line).not.toContain("<!channel>");
  });

  test("a whole answer has no such line", async () => {
    const [m] = messagesOf(await ask("context_names=lab-2x"));
    expect(m?.partial).toBeUndefined();
    expect(m?.text).not.toContain("answered in part");
  });
});

describe("a partial list's CSV", () => {
  test("goes with a CSV of the errors, each cell safe for a spreadsheet, once each", () => {
    const list = message("2 file systems", [], {
      attachments: [
        { filename: "file-systems.csv", title: "t", contentType: "text/csv", content: "Name\r\n" },
      ],
    });
    const err = { array: "fb-a", context: "=cmd|' /C calc'!A0", message: "Context does not exist." };
    const m = withPartial(list, [err, err]);
    expect(m.attachments?.map((a) => a.filename)).toEqual(["file-systems.csv", "partial-answer-errors.csv"]);
    expect(m.attachments?.[1]?.content).toBe(
      "Array,Context,Error\r\nfb-a,'=cmd|' /C calc'!A0,Context does not exist.\r\n",
    );
    // Without a CSV (a short list) the lines and the data say it all.
    expect(withPartial(message("x", []), [err]).attachments).toBeUndefined();
  });
});
