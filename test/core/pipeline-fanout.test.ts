import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { requestCount } from "../helpers/wire.js";
import { type Harness, messagesOf, startHarness, textOf } from "./harness.js";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    arrays: [
      { name: "lab-1", tags: ["lab"] },
      { name: "lab-2", tags: ["lab", "prod"] },
    ],
    config: {
      channels: {
        bindings: { "C-PROD": { arrays: ["tag:prod"], default_array: "lab-2" } },
      },
    },
  });
});
afterAll(async () => h.close());

describe("several arrays", () => {
  test("tags select arrays; a mutating command takes one array at a time", async () => {
    expect(textOf(await h.run("carol", "snapshot list --fs home --array tag:prod"))).toContain(
      "of home on array lab-2",
    );
    expect(textOf(await h.run("bob", "fs resize home 25T --array all"))).toContain(
      "runs on one array at a time",
    );
  });

  test("without --array and without a default, the answer asks which array", async () => {
    expect(textOf(await h.run("carol", "fs list"))).toContain(
      "Which array? Add --array <name>".replace("<", "&lt;").replace(">", "&gt;"),
    );
  });

  test("channel bindings: default array, and arrays outside the binding refused", async () => {
    expect(textOf(await h.run("carol", "fs show home", { channel: "C-PROD" }))).toContain(
      "File system home on lab-2",
    );
    expect(textOf(await h.run("carol", "fs show home --array lab-1", { channel: "C-PROD" }))).toContain(
      "This channel may not target array lab-1; it may use: lab-2.",
    );
    expect(h.audits.at(-1)).toMatchObject({ decision: "denied", errorCode: "CHANNEL_FORBIDDEN" });
  });

  test("an unknown array name gets suggestions", async () => {
    expect(textOf(await h.run("carol", "fs list --array lab-3"))).toMatch(/lab-1|lab-2/);
  });
});

describe("user text never becomes a mention or a link", () => {
  test("names echoed in errors are escaped", async () => {
    // Slack delivers a typed "<@U999>" as "&lt;@U999&gt;"; the parser decodes it, the reply escapes it again.
    const effects = await h.run("carol", "fs show &lt;@U999&gt; --array lab-1");
    const markup = messagesOf(effects).flatMap((m) =>
      m.blocks.map((b) => ("text" in b ? String(b.text) : "")),
    );
    expect(markup.join("\n")).toContain("&lt;@U999&gt;");
    expect(markup.join("\n")).not.toContain("<@U999>");
  });

  test("a file system called <!channel> is escaped in every rich text", async () => {
    const created = await h.run("bob", "fs create &lt;!channel&gt; 1G --array lab-1");
    const shown = await h.run("carol", "fs show '&lt;!channel&gt;' --array lab-1");
    const listed = await h.run("carol", "fs list --name '&lt;*' --array lab-1");
    for (const effects of [created, shown]) {
      const markup = messagesOf(effects).flatMap((m) =>
        m.blocks.flatMap((b) => {
          if (b.type === "section" || b.type === "context") return [b.text.markup];
          if (b.type === "fields") return b.fields.map((f) => f.value.markup);
          return [];
        }),
      );
      expect(markup.length).toBeGreaterThan(0);
      expect(markup.join("\n")).not.toContain("<!channel>");
    }
    // Plain strings (headers, table cells) keep the name as is; every renderer escapes them itself.
    expect(textOf(shown)).toContain("File system <!channel> on lab-1");
    expect(textOf(listed)).toContain("<!channel>");
    expect(JSON.stringify(messagesOf(created)[0]?.blocks)).toContain("&lt;!channel&gt;");
  });
});

describe("retried deliveries", () => {
  test("the same request id runs once and gets the same answer", async () => {
    const posts = () =>
      requestCount(h.sims.get("lab-1")?.control.stats() ?? { requests: {} }, "POST /api/1.12/file-systems");
    const before = posts();
    const audits = h.audits.length;
    const first = await h.run("bob", "fs create retry-me 1T --array lab-1", { requestId: "slack-1" });
    const again = await h.run("bob", "fs create retry-me 1T --array lab-1", { requestId: "slack-1" });
    expect(again).toEqual(first);
    expect(textOf(first)).toContain("Created file system *retry-me*");
    expect(posts()).toBe(before + 1);
    expect(h.audits.length).toBe(audits + 1);
  });
});

describe("one array down", () => {
  // Runs last: the pool keeps lab-2 marked down for a while after this.
  test("fan-out answers once, with one row set per array and a line per failed array", async () => {
    const both = textOf(await h.run("carol", "fs list --array all"));
    expect(both).toMatch(/\d+ file systems on 2 arrays/);
    expect(both).toContain("lab-1 | home");
    expect(both).toContain("lab-2 | home");

    await h.sims.get("lab-2")?.control.down();
    try {
      const effects = await h.run("carol", "fs list --array all");
      expect(effects).toHaveLength(1);
      const table = messagesOf(effects)[0]?.blocks.find((b) => b.type === "table");
      expect(table?.type === "table" && new Set(table.rows.map((r) => r["array"]))).toEqual(
        new Set(["lab-1"]),
      );
      const text = textOf(effects);
      expect(text).toMatch(/\d+ file systems on array lab-1/);
      expect(text).toMatch(/⚠ array lab-2 failed: array lab-2 is unreachable/);
      expect(h.audits.at(-1)).toMatchObject({
        arrays: ["lab-1", "lab-2"],
        decision: "allowed",
        errorCode: "ARRAY_UNREACHABLE",
      });
    } finally {
      await h.sims.get("lab-2")?.control.up();
    }
  });
});
