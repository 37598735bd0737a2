/**
 * A catalogue list settles per column, per command or per registry what does not change from cell to cell or
 * from list to list (issue 27: a list within +0.3 ms of its raw GET), and shows exactly what it showed before:
 * each column's reader and formatter are compiled once per path and unit; whether a command has a form is
 * looked up once per registry; the outgoing redaction keeps a row that has nothing to redact. No timings here:
 * what is asserted is what is built once and what every cell still says.
 */
import { describe, expect, test } from "vitest";
import {
  cellsOf,
  formatterOf,
  formatValue,
  type Item,
  readerOf,
  valueAt,
} from "../../commands/catalogue/generic/values.js";
import { RESOURCES } from "../../commands/index.js";
import { withFormOffers } from "../../src/core/catalogue/form-offers.js";
import { createRegistry, type Registry } from "../../src/core/catalogue/registry.js";
import { columnNumbers } from "../../src/core/presentation/list-view.js";
import type { Block, Message } from "../../src/core/presentation/message.js";
import { REDACTED, redactMessage } from "../../src/core/presentation/redact.js";

const registry = createRegistry(RESOURCES);
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 27, 3, 0, 0);
const ctx = { now: NOW, timeZone: "UTC" };

describe("a column is compiled once", () => {
  test("the same path and unit give the same reader and formatter; another unit gives another", () => {
    expect(formatterOf("status", "status")).toBe(formatterOf("status", "status"));
    expect(formatterOf("used", "size")).toBe(formatterOf("used", "size"));
    expect(formatterOf("used", "size")).not.toBe(formatterOf("used", undefined));
    expect(readerOf("remote.name|remote_name")).toBe(readerOf("remote.name|remote_name"));
  });

  test("a catalogue entry's own columns are settled once for its units; other units or a passing list are not reused", () => {
    const columns = ["name", "used"];
    const units = { used: "size" } as const;
    const first = cellsOf(columns, units, true);
    expect(cellsOf(columns, units, true)).toBe(first);
    expect(first.map((c) => c.format(2048, ctx))).toEqual(["2048", "2 KiB"]);
    const other = cellsOf(columns, { used: "percent" }, true);
    expect(other).not.toBe(first);
    expect(other[1]?.format(0.5, ctx)).toBe("50%");
    expect(cellsOf(columns, undefined, false)).not.toBe(cellsOf(columns, undefined, false));
  });

  test("a secret column hides its value whatever its unit, and an empty one still shows –", () => {
    for (const unit of [undefined, "size", "timestamp", "status"] as const) {
      expect(formatterOf("v2c.community", unit)("public", ctx)).toBe(REDACTED);
      expect(formatterOf("api_token.token", unit)("T-123", ctx)).toBe(REDACTED);
      expect(formatterOf("v2c.community", unit)("", ctx)).toBe("–");
      expect(formatterOf("v2c.community", unit)(null, ctx)).toBe("–");
    }
  });

  test("a time field without a unit is still a date; the same number elsewhere is a number", () => {
    const t = NOW - 3 * DAY;
    expect(formatterOf("created", undefined)(t, ctx)).toBe(formatValue("created", t, undefined, ctx));
    expect(formatterOf("created", undefined)(t, ctx)).toMatch(/^2026-11-24/);
    expect(formatterOf("last_seen", undefined)(String(t), ctx)).toMatch(/^2026-11-24/);
    // A field whose name implies no unit (impliedUnit: capacity is bytes, *_count a count) stays the number.
    expect(formatterOf("index", undefined)(t, ctx)).toBe(String(t));
  });

  test("each unit reads as before: sizes, durations, percentages, expiry and days left, status", () => {
    const cases: [Parameters<typeof formatterOf>[1], unknown, string][] = [
      ["size", 1536, "1.5 KiB"],
      ["size", "2048", "2 KiB"],
      ["size", "lots", "lots"],
      ["ms", 90_000, "1m 30s"],
      ["s", 90, "1m 30s"],
      ["percent", 0.4567, "45.7%"],
      ["timestamp", 0, "0"],
      ["expiry", NOW - DAY, `${formatValue("x", NOW - DAY, "timestamp", ctx)} ⚠ expired`],
      ["expiry", NOW + 10 * DAY, `${formatValue("x", NOW + 10 * DAY, "timestamp", ctx)} ⚠ in 10d`],
      ["days-left", NOW + 10 * DAY, "10 ⚠ under 30"],
      ["days-left", NOW + 60 * DAY, "60 ⚠ under 90"],
      ["days-left", NOW + 200 * DAY, "200"],
      ["days-left", NOW - DAY, "-1 ✗ expired"],
      ["status", "Healthy", "✓ Healthy"],
      ["status", "degraded", "✗ degraded"],
      [undefined, true, "yes"],
      [undefined, [{ name: "a" }, "b"], "a, b"],
      [undefined, [], "–"],
      [undefined, { id: "x1", secret_key: "s" }, "id=x1"],
      [undefined, "http://u:pw@proxy:3128", "http://u:***@proxy:3128"],
      [undefined, "u:pw@proxy:3128", "u:***@proxy:3128"],
    ];
    for (const [unit, v, shown] of cases) {
      expect({ unit, v, cell: formatterOf("x", unit)(v, ctx) }).toEqual({ unit, v, cell: shown });
      expect(formatValue("x", v, unit, ctx)).toBe(shown);
    }
  });

  test("a reader takes the first alternative present, walks dotted steps, and reads nothing from a non-object", () => {
    const item: Item = { remote: { name: "dr-1" }, periodic: { lag: 5 }, plain: "p" };
    expect(readerOf("async.lag|periodic.lag")(item)).toBe(5);
    expect(readerOf("remote.name")(item)).toBe("dr-1");
    expect(readerOf("plain")(item)).toBe("p");
    expect(readerOf("plain.deeper")(item)).toBeUndefined();
    expect(readerOf("valid_to:days")({ valid_to: 7 })).toBe(7);
    expect(readerOf("plain")(null as unknown as Item)).toBeUndefined();
    expect(valueAt(item, "async.lag|periodic.lag")).toBe(5);
  });
});

describe("a catalogue table", () => {
  test("every cell is formatValue of the item's value in that column, units and expiry marks included", () => {
    const entry = registry.find("certificate", "list");
    const items: Item[] = [
      {
        name: "mgmt",
        status: "imported",
        valid_from: NOW - 400 * DAY,
        valid_to: NOW + 12 * DAY,
        _array: "a",
      },
      { name: "old", status: "imported", valid_from: NOW - 800 * DAY, valid_to: NOW - DAY, _array: "a" },
      { name: "new", valid_to: NOW + 300 * DAY, key_size: 4096, _array: "a" },
    ];
    const rctx = { arrays: ["a"], now: NOW, timeZone: "UTC" };
    const msg = entry.command.render({ items, capped: false }, {}, rctx) as Message;
    const table = msg.blocks.find((b) => b.type === "table") as Extract<Block, { type: "table" }>;
    const units = { valid_from: "timestamp", valid_to: "expiry", "valid_to:days": "days-left" } as const;
    expect(table.rows).toHaveLength(items.length);
    table.rows.forEach((row, r) => {
      const item = items[r] as Item;
      for (const { key } of table.columns) {
        const unit = units[key as keyof typeof units];
        expect({ key, cell: row[key] }).toEqual({
          key,
          cell: formatValue(key, valueAt(item, key), unit, rctx),
        });
      }
    });
    expect(table.rows[1]?.["valid_to:days"]).toBe("-1 ✗ expired");
    // The callouts still read the same values: one expiring soon, one expired.
    expect(msg.blocks.some((b) => b.type === "context" && b.text.markup.includes("mgmt, old"))).toBe(true);
  });
});

describe("a list's form offers", () => {
  /** The registry as given, counting how often its commands are listed. */
  function counted(inner: Registry): { registry: Registry; listings: () => number } {
    let n = 0;
    const registry: Registry = {
      ...inner,
      all: () => {
        n++;
        return inner.all();
      },
    };
    return { registry, listings: () => n };
  }

  test("whether a noun has a Create or Change form is looked up once per registry, the role checked every time", () => {
    const { registry: r, listings } = counted(registry);
    const entry = r.find("hardware", "list");
    const msg: Message = {
      text: "hardware",
      blocks: [{ type: "table", columns: [{ key: "name", label: "Name" }], rows: [{ name: "CH1.FB1" }] }],
    };
    const first = withFormOffers(r, entry, "operator", "a", msg);
    expect(first.forms?.map((f) => f.path)).toEqual(["hardware update"]);
    const after = listings();
    for (let i = 0; i < 5; i++) withFormOffers(r, entry, "operator", "a", msg);
    expect(listings()).toBe(after);
    // The role is still asked each time: a viewer is offered nothing, from the same remembered lookup.
    expect(withFormOffers(r, entry, "viewer", "a", msg).forms).toBeUndefined();
    expect(withFormOffers(r, entry, "operator", "a", msg).forms?.[0]?.names).toEqual(["CH1.FB1"]);
    expect(listings()).toBe(after);
  });
});

describe("the outgoing redaction of a table", () => {
  test("a row with nothing to redact is kept; a row with a credential or a secret cell is a redacted copy", () => {
    const clean = { name: "home", proxy: "http://proxy:3128" };
    const dirty = { name: "lab", proxy: "http://u:pw@proxy:3128" };
    const secret = { name: "nms", "v2c.community": "public" };
    const msg: Message = {
      text: "t",
      blocks: [
        {
          type: "table",
          columns: [
            { key: "name", label: "Name" },
            { key: "proxy", label: "Proxy" },
            { key: "v2c.community", label: "Community" },
          ],
          rows: [clean, dirty, secret],
        },
      ],
    };
    const out = redactMessage(msg).blocks[0] as Extract<Block, { type: "table" }>;
    expect(out.rows[0]).toBe(clean);
    expect(out.rows[1]).toEqual({ name: "lab", proxy: "http://u:***@proxy:3128" });
    expect(out.rows[2]).toEqual({ name: "nms", "v2c.community": REDACTED });
    // The rows as rendered are left as they were.
    expect(dirty.proxy).toBe("http://u:pw@proxy:3128");
    expect(secret["v2c.community"]).toBe("public");
    expect(Object.keys(out.rows[1] ?? {})).toEqual(["name", "proxy"]);
  });
});

describe("a column's numbers for Slack's sortable table", () => {
  /** `cells` as an array that counts how many of its cells are read. */
  function counted(cells: string[]): { cells: string[]; reads: () => number } {
    let n = 0;
    const proxy = new Proxy(cells, {
      get(target, prop, receiver) {
        if (typeof prop === "string" && /^\d+$/.test(prop)) n++;
        return Reflect.get(target, prop, receiver);
      },
    });
    return { cells: proxy, reads: () => n };
  }

  test("a column of names is settled at its first name, not read to its end", () => {
    const names = counted(Array.from({ length: 1000 }, (_, i) => `CH1.FB${i}`));
    expect(columnNumbers(names.cells)).toBeUndefined();
    expect(names.reads()).toBeLessThan(5);
    const mixed = counted(["1 GiB", "–", "5%", ...Array.from({ length: 500 }, () => "2 GiB")]);
    expect(columnNumbers(mixed.cells)).toBeUndefined();
    expect(mixed.reads()).toBeLessThan(10);
  });

  test("sizes, numbers and durations still read as numbers, holes and words that stand for none left out", () => {
    expect(columnNumbers(["1.5 TiB", "900 GiB", "–", "unlimited"])).toEqual([
      1.5 * 2 ** 40,
      900 * 2 ** 30,
      undefined,
      undefined,
    ]);
    expect(columnNumbers(["1,234", "-5", "93 %", "< 1"])).toEqual([1234, -5, 93, 1]);
    expect(columnNumbers(["7d", "2h", ""])).toEqual([7 * 86_400_000, 2 * 3_600_000, undefined]);
    expect(columnNumbers(["–", "never"])).toBeUndefined();
    expect(columnNumbers(["1 GiB", "home"])).toBeUndefined();
  });
});
