import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { helpMessage } from "../../src/core/catalogue/help.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { type Block, type Message, rich } from "../../src/core/presentation/message.js";
import { csvCell } from "../../src/core/presentation/table.js";
import { baseActionId, toSlack } from "../../src/slack/blocks.js";
import { safeCut, splitText, truncate } from "../../src/slack/limits.js";
import { blockKitViolations } from "../fakes/block-kit-rules.js";
import { listing } from "./helpers/test-pipeline.js";

const text = (blocks: unknown) => JSON.stringify(blocks);

describe("toSlack: the largest answers stay within Slack's limits", () => {
  it("a listing of 10,000 file systems: one data table of 100 rows, a note, and the full CSV", () => {
    const p = toSlack(listing(10_000));
    expect(blockKitViolations(p.blocks)).toEqual([]);
    const table = p.blocks.find((b) => b.type === "data_table") as unknown as {
      rows: Record<string, unknown>[][];
      caption: string;
      page_size: number;
    };
    expect(table.rows).toHaveLength(101);
    expect(table.caption).toBe("File systems (10,000 rows)");
    expect(table.page_size).toBe(20);
    // Sizes and percentages are numbers Slack sorts as numbers; names stay text.
    expect(table.rows[0]?.map((c) => c["text"])).toEqual(["Name", "Size", "Used"]);
    expect(table.rows[2]).toEqual([
      { type: "raw_text", text: "fs-00001" },
      { type: "raw_number", value: 2 * 2 ** 40, text: "2 TiB" },
      { type: "raw_number", value: 1, text: "1%" },
    ]);
    expect(text(p.blocks)).toContain(
      "Showing 100 of 10,000 rows. The full list is attached as file-systems.csv.",
    );
    expect(p.files).toHaveLength(1);
    expect(String(p.files[0]?.content).split("\r\n")).toHaveLength(10_002);
    expect(p.shortened).toBe(false);
  });

  it("a workspace without data tables gets the plain table block: 99 rows, a note, and the full CSV", () => {
    const p = toSlack(listing(10_000), "message", { kind: "table", pageSize: 20 });
    expect(blockKitViolations(p.blocks)).toEqual([]);
    const table = p.blocks.find((b) => b.type === "table") as unknown as { rows: unknown[] };
    expect(table.rows).toHaveLength(100);
    expect(text(p.blocks)).toContain(
      "Showing 99 of 10,000 rows. The full list is attached as file-systems.csv.",
    );
    expect(p.files).toHaveLength(1);
    expect(String(p.files[0]?.content).split("\r\n")).toHaveLength(10_002);
    expect(p.shortened).toBe(false);
  });

  it("the longest help the registry produces", () => {
    const registry = createRegistry(RESOURCES);
    const topics = [undefined, ...registry.resources.map((r) => r.name), ...registry.all().map((e) => e.id)];
    const messages = topics.map((t) => helpMessage(registry, "admin", t));
    const longest = messages.reduce((a, b) => (text(b.blocks).length > text(a.blocks).length ? b : a));
    const p = toSlack(longest);
    expect(blockKitViolations(p.blocks)).toEqual([]);
    for (const m of messages) expect(blockKitViolations(toSlack(m).blocks)).toEqual([]);
  });

  it("a fan-out over 300 arrays is shortened, keeps its buttons and attaches the full output", () => {
    const blocks: Block[] = [{ type: "header", text: "Capacity on 300 arrays" }];
    for (let i = 0; i < 300; i++) {
      blocks.push({
        type: "section",
        text: rich`*fb-${i}*: ${"9".repeat(40)} TiB used of ${"1".repeat(40)} TiB`,
      });
      blocks.push({
        type: "fields",
        fields: Array.from({ length: 12 }, (_, j) => ({ label: `metric ${j}`, value: rich`${j * i}` })),
      });
    }
    blocks.push({ type: "actions", buttons: [{ actionId: "more", label: "Show more", value: "page-2" }] });
    const p = toSlack({ text: "capacity", blocks });
    expect(blockKitViolations(p.blocks)).toEqual([]);
    expect(p.blocks.length).toBeLessThanOrEqual(50);
    expect(p.shortened).toBe(true);
    expect(p.blocks.at(-1)?.type).toBe("actions");
    expect(text(p.blocks)).toContain("The full output is attached as full-output.txt");
    const full = String(p.files.find((f) => f.filename === "full-output.txt")?.content);
    expect(full).toContain("fb-299");
    expect(full).toContain("metric 11: 3289");
  });

  it("App Home takes up to 100 blocks and no table block", () => {
    const blocks: Block[] = Array.from({ length: 150 }, (_, i) => ({
      type: "section",
      text: rich`line ${i}`,
    }));
    blocks.push(listing(5).blocks[1] as Block);
    const p = toSlack({ text: "home", blocks }, "home");
    expect(blockKitViolations(p.blocks, "view")).toEqual([]);
    expect(p.blocks).toHaveLength(100);
  });

  it("never breaks the limits, whatever the message (property)", () => {
    const richText = fc.string({ maxLength: 4000 }).map((s) => rich`${s}`);
    const block: fc.Arbitrary<Block> = fc.oneof(
      fc.string({ maxLength: 300 }).map((t) => ({ type: "header" as const, text: `h${t}` })),
      richText.map((t) => ({ type: "section" as const, text: t })),
      richText.map((t) => ({ type: "context" as const, text: t })),
      fc.string({ maxLength: 5000 }).map((t) => ({ type: "code" as const, text: `c${t}` })),
      fc
        .array(fc.record({ label: fc.string({ maxLength: 100 }), value: richText }), {
          minLength: 1,
          maxLength: 25,
        })
        .map((fields) => ({ type: "fields" as const, fields })),
      fc.integer({ min: 0, max: 300 }).map((n) => listing(n).blocks[1] as Block),
      fc
        .array(fc.string({ minLength: 1, maxLength: 120 }), { minLength: 1, maxLength: 30 })
        .map((labels) => ({
          type: "actions" as const,
          buttons: labels.map((l, i) => ({ actionId: `a${i % 3}`, label: l, value: `v${i}` })),
        })),
    );
    fc.assert(
      fc.property(fc.array(block, { maxLength: 80 }), (blocks) => {
        const p = toSlack({ text: "t", blocks });
        expect(blockKitViolations(p.blocks)).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});

describe("toSlack: content", () => {
  it("escapes user text so it cannot mention anyone, and keeps plain text plain", () => {
    const m: Message = {
      text: "fs <!channel> & co",
      blocks: [
        { type: "header", text: "fs <!here>" },
        { type: "section", text: rich`name ${"<!channel>"}` },
        { type: "fields", fields: [{ label: "<@U1>", value: rich`${"<https://x|y>"}` }] },
      ],
    };
    const p = toSlack(m);
    expect(p.text).toBe("fs &lt;!channel&gt; &amp; co");
    expect(text(p.blocks)).not.toMatch(/<!channel>|<@U1>|<https/);
    expect(p.blocks[0]).toEqual({
      type: "header",
      text: { type: "plain_text", text: "fs <!here>", emoji: true },
    });
  });

  it("uses one table block per message; a second or too-wide table becomes a monospace grid", () => {
    const wide = {
      type: "table" as const,
      columns: Array.from({ length: 21 }, (_, i) => ({ key: `k${i}`, label: `C${i}` })),
      rows: [Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, `v${i}`]))],
    };
    const p = toSlack({
      text: "t",
      blocks: [listing(3).blocks[1] as Block, listing(2).blocks[1] as Block, wide],
    });
    expect(p.blocks.map((b) => b.type)).toEqual(["data_table", "rich_text", "rich_text"]);
    expect(text(p.blocks[1])).toContain("fs-00001");
    expect(p.files).toEqual([]);
  });

  it("a data table sorts sizes by bytes, keeps a text column as text, and pages as configured", () => {
    const p = toSlack(
      {
        text: "t",
        blocks: [
          { type: "header", text: "File systems on fb-lab-01" },
          {
            type: "table",
            columns: [
              { key: "name", label: "Name" },
              { key: "size", label: "Size" },
              { key: "state", label: "State" },
            ],
            rows: [
              { name: "a", size: "1.5 TiB", state: "ok" },
              { name: "b", size: "900 GiB", state: "–" },
              { name: "c", size: "–", state: "degraded" },
            ],
          },
        ],
      },
      "message",
      { kind: "data_table", pageSize: 50 },
    );
    expect(blockKitViolations(p.blocks)).toEqual([]);
    const t = p.blocks[1] as unknown as {
      rows: Record<string, unknown>[][];
      page_size: number;
      caption: string;
    };
    expect(t.caption).toBe("File systems on fb-lab-01 (3 rows)");
    expect(t.page_size).toBe(3);
    const sizes = t.rows.slice(1).map((r) => r[1]);
    expect(sizes).toEqual([
      { type: "raw_number", value: 1.5 * 2 ** 40, text: "1.5 TiB" },
      { type: "raw_number", value: 900 * 2 ** 30, text: "900 GiB" },
      { type: "raw_text", text: "–" },
    ]);
    expect(t.rows.slice(1).map((r) => r[2]?.["type"])).toEqual(["raw_text", "raw_text", "raw_text"]);
  });

  it("renders buttons within limits, with danger confirm dialogs and unique action ids", () => {
    const p = toSlack({
      text: "t",
      blocks: [
        {
          type: "actions",
          buttons: [
            {
              actionId: "x",
              label: "L".repeat(100),
              value: "P1",
              style: "danger",
              confirm: {
                title: "T".repeat(120),
                text: "X".repeat(400),
                confirm: "C".repeat(40),
                deny: "Back",
              },
            },
            { actionId: "x", label: "Again", value: "P2" },
          ],
        },
      ],
    });
    expect(blockKitViolations(p.blocks)).toEqual([]);
    const [first, second] = (p.blocks[0] as unknown as { elements: Record<string, unknown>[] }).elements;
    expect(first?.["text"]).toMatchObject({ text: "L".repeat(74) + "…" });
    expect(first?.["confirm"]).toMatchObject({ style: "danger" });
    expect(second?.["action_id"]).toBe("x~2");
    expect(baseActionId("x~2")).toBe("x");
    expect(baseActionId("array.pending.approve")).toBe("array.pending.approve");
  });

  it("refuses a button value longer than an id should be (a bug, not data)", () => {
    expect(() =>
      toSlack({
        text: "t",
        blocks: [{ type: "actions", buttons: [{ actionId: "a", label: "b", value: "v".repeat(256) }] }],
      }),
    ).toThrow(expect.objectContaining({ code: "SLACK_BUTTON_VALUE_TOO_LONG" }));
  });

  it("splits long sections and more than 10 fields", () => {
    const long = rich`${"word & ".repeat(1000)}`;
    const p = toSlack({
      text: "t",
      blocks: [
        { type: "section", text: long },
        {
          type: "fields",
          fields: Array.from({ length: 23 }, (_, i) => ({ label: `f${i}`, value: rich`${i}` })),
        },
      ],
    });
    expect(blockKitViolations(p.blocks)).toEqual([]);
    expect(p.shortened).toBe(false);
    const sections = p.blocks.filter((b) => b.type === "section" && b["text"] !== undefined);
    const fieldSections = p.blocks.filter((b) => b.type === "section" && b["fields"] !== undefined);
    expect(sections).toHaveLength(4);
    expect(fieldSections.map((b) => (b["fields"] as unknown[]).length)).toEqual([10, 10, 3]);
    const joined = sections.map((s) => (s["text"] as { text: string } | undefined)?.text ?? "").join(" ");
    expect(joined).not.toMatch(/&(a|am|amp)?(?![a-z;])/);
  });
});

describe("text helpers", () => {
  it("truncate and safeCut never split an entity or a surrogate pair", () => {
    expect(truncate("abcdef", 4)).toBe("abc…");
    expect(safeCut("ab &amp; cd", 6)).toBe("ab ");
    expect(safeCut("a😀b", 2)).toBe("a");
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.integer({ min: 1, max: 200 }), (s, n) => {
        const e = s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
        const cut = truncate(e, n);
        expect(cut.length).toBeLessThanOrEqual(n);
        expect(cut.replace(/…$/, "")).not.toMatch(/&[a-z]*$/);
      }),
    );
  });

  it("splitText keeps every character and respects the size", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000 }), fc.integer({ min: 20, max: 500 }), (s, max) => {
        const parts = splitText(s, max);
        for (const p of parts) expect(p.length).toBeLessThanOrEqual(max);
        expect(parts.join("").replace(/[\n ]/g, "")).toBe(s.replace(/[\n ]/g, ""));
      }),
    );
  });

  it("CSV cells are quoted and never start a formula", () => {
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell("-12.5")).toBe("-12.5");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
  });
});
