import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { message, plain, rich, unescapeText } from "../../src/core/presentation/message.js";
import { formatTable, renderText } from "../../src/local/text-render.js";

describe("console text renderer", () => {
  test("an image block's file is handed to the console, which says where it went", () => {
    const file = { filename: "c.png", title: "Chart", contentType: "image/png" as const, content: "x" };
    const msg = message("x", [{ type: "image", title: "Chart", altText: "a chart", file }]);
    const seen: string[] = [];
    const out = renderText(msg, {
      describeImage: (f) => {
        seen.push(f.filename);
        return "[Chart: saved to /tmp/c.png]";
      },
    });
    expect(seen).toEqual(["c.png"]);
    expect(out.text).toBe("[Chart: saved to /tmp/c.png]");
    expect(renderText(msg).text).toBe("[image: Chart]");
  });

  test("markup markers go, escaped user text comes back as typed", () => {
    const name = "<!channel> & <@U1>";
    const out = renderText(
      message("x", [
        { type: "header", text: `File system ${name}` },
        { type: "section", text: rich`Destroyed *${name}*.` },
        {
          type: "fields",
          fields: [
            { label: "Used", value: rich`1 TiB` },
            { label: "Protocols", value: rich`NFS` },
          ],
        },
        { type: "context", text: rich`Requested by bob.` },
        { type: "code", text: "PATCH /api/1.12/file-systems?name=x" },
      ]),
    );
    expect(out.text).toBe(
      [
        "== File system <!channel> & <@U1> ==",
        "Destroyed <!channel> & <@U1>.",
        "Used:      1 TiB",
        "Protocols: NFS",
        "Requested by bob.",
        "    PATCH /api/1.12/file-systems?name=x",
      ].join("\n"),
    );
  });

  test("buttons are numbered from the given start and returned in order", () => {
    const out = renderText(
      message("x", [
        {
          type: "actions",
          buttons: [
            { actionId: "a", label: "Approve", value: "p1" },
            { actionId: "d", label: "Deny", value: "p1" },
          ],
        },
      ]),
      { firstButton: 3 },
    );
    expect(out.text).toBe("[3] Approve   [4] Deny");
    expect(out.buttons.map((b) => b.label)).toEqual(["Approve", "Deny"]);
  });

  test("tables align, right-aligned columns pad left, and long listings say how many are shown", () => {
    const cols = [
      { key: "n", label: "Name" },
      { key: "s", label: "Size", align: "right" as const },
    ];
    expect(
      formatTable(cols, [
        { n: "a", s: "1 TiB" },
        { n: "bbbb", s: "20 TiB" },
      ]),
    ).toBe(["Name    Size", "----  ------", "a      1 TiB", "bbbb  20 TiB"].join("\n"));
    const out = renderText(
      message("x", [{ type: "table", columns: cols, rows: [{ n: "a", s: "1" }], totalRows: 10_000 }], {
        attachments: [{ filename: "fs.csv", title: "All", contentType: "text/csv", content: "n\n" }],
      }),
      { describeAttachment: (f) => `[saved ${f}]` },
    );
    expect(out.text).toContain("(showing 1 of 10,000)");
    expect(out.text).toContain("[saved fs.csv]");
  });

  test("markup markers in user text stay text: not stripped by the console, not markup for Slack", () => {
    const name = "a*b_c `x` _tmp_ ~y~ *z*";
    const section = rich`Destroyed *${name}* (snake_case_ok).`;
    expect(section.markup).not.toMatch(/\*z\*|_tmp_|`x`|~y~/);
    expect(rich`${"snake_case"}`.markup).toBe("snake_case");
    const err = plain(`the value 'a b*c' contains "*", which a name cannot hold`);
    const out = renderText(
      message("x", [
        { type: "section", text: section },
        { type: "section", text: err },
        { type: "fields", fields: [{ label: "Name", value: rich`${"_under_"}` }] },
      ]),
    );
    expect(out.text).toBe(
      [
        "Destroyed a*b_c `x` _tmp_ ~y~ *z* (snake_case_ok).",
        `the value 'a b*c' contains "*", which a name cannot hold`,
        "Name: _under_",
      ].join("\n"),
    );
  });

  test("any typed text comes back unchanged from bold markup in the console", () => {
    fc.assert(
      fc.property(
        fc
          .string({ unit: fc.constantFrom("a", "b", " ", "*", "_", "~", "`", "&", "<", ">", ";") })
          .filter((s) => s.trim() !== ""),
        (s) => {
          expect(unescapeText(rich`${s}`.markup)).toBe(s);
          expect(renderText(message("x", [{ type: "section", text: rich`*${s}*` }])).text).toBe(s);
        },
      ),
    );
  });
});
