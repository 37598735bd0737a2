/**
 * One unit per column (issue 43): every table column holding sizes writes them in one unit, checked over every
 * Block Kit golden file (read from test/slack/golden) and every lookup example of every command (read from the
 * registry) on the demo arrays and on the slow-nfs incident, where client rates span MiB to GiB. The rule's
 * output stays a value: it sorts as numbers in Slack's data tables and `--where` compares it as a size.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { oneUnitPerColumn } from "../../src/core/presentation/column-units.js";
import { columnNumbers } from "../../src/core/presentation/list-view.js";
import type { Block } from "../../src/core/presentation/message.js";
import { type Harness, messagesOf, startHarness } from "../core/harness.js";
import { startDemoHarness } from "./demo-examples.js";

const SIZE = /\d[\d,.]* (B|KiB|MiB|GiB|TiB|PiB|EiB)\b/g;

/** The columns (label → cells) that show sizes in more than one unit. */
function mixedColumns(labels: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return labels.flatMap((label, i) => {
    const units = new Set(rows.flatMap((r) => [...(r[i] ?? "").matchAll(SIZE)].map((m) => m[1])));
    return units.size > 1
      ? [`${label}: ${[...units].join(", ")} in ${rows.map((r) => r[i]).join(" | ")}`]
      : [];
  });
}

function mixedInBlocks(blocks: readonly Block[]): string[] {
  return blocks.flatMap((b) =>
    b.type === "table"
      ? mixedColumns(
          b.columns.map((c) => c.label),
          b.rows.map((r) => b.columns.map((c) => r[c.key] ?? "")),
        )
      : [],
  );
}

describe("the rule", () => {
  const cols = [{ key: "used", label: "Used" }];
  const rows = ["3.13 TiB", "1014 GiB", "2.41 MiB ⚠ growing", "–", "0 B"].map((used) => ({ used }));

  test("catches a column the old way wrote, and one unit per column passes it", () => {
    const old = rows.map((r) => [r.used]);
    expect(mixedColumns(["Used"], old)).not.toEqual([]);
    const fixed = oneUnitPerColumn(cols, rows);
    expect(fixed.map((r) => r.used)).toEqual([
      "3.13 TiB",
      "0.99 TiB",
      // Two significant digits below the unit: never a 0 that reads as empty; its mark kept.
      "0.0000023 TiB ⚠ growing",
      "–",
      "0 TiB",
    ]);
    expect(
      mixedColumns(
        ["Used"],
        fixed.map((r) => [r["used"] ?? ""]),
      ),
    ).toEqual([]);
  });

  test("cells stay values: Slack's numeric sort reads them in the old order", () => {
    const before = columnNumbers(rows.map((r) => r.used)) ?? [];
    const after = columnNumbers(oneUnitPerColumn(cols, rows).map((r) => r["used"] ?? "")) ?? [];
    expect(after).toHaveLength(before.length);
    const order = (xs: readonly (number | undefined)[]) =>
      xs
        .map((v, i) => [v ?? -1, i] as const)
        .sort((a, b) => a[0] - b[0])
        .map(([, i]) => i);
    expect(order(after)).toEqual(order(before));
  });
});

const GOLDEN = join(import.meta.dirname, "..", "slack", "golden");

/** Slack tables in a golden file: `table` and `data_table` blocks, header row first, wherever they sit. */
function slackTables(value: unknown): string[][][] {
  if (Array.isArray(value)) return value.flatMap(slackTables);
  if (value === null || typeof value !== "object") return [];
  const o = value as Record<string, unknown>;
  if ((o["type"] === "table" || o["type"] === "data_table") && Array.isArray(o["rows"]))
    return [(o["rows"] as { text?: string }[][]).map((r) => r.map((c) => String(c.text ?? "")))];
  return Object.values(o).flatMap(slackTables);
}

describe("every golden render has one unit per column", () => {
  test.each(readdirSync(GOLDEN).filter((f) => f.endsWith(".json")))("%s", (file) => {
    const tables = slackTables(JSON.parse(readFileSync(join(GOLDEN, file), "utf8")));
    expect(tables.flatMap(([head = [], ...rows]) => mixedColumns(head, rows))).toEqual([]);
  });
});

const LOOKUPS = createRegistry(RESOURCES)
  .all()
  .filter((e) => e.command.impact === undefined && e.command.visibility !== "in_channel")
  .flatMap((e) => e.command.examples);

describe("every lookup example's tables have one unit per column", () => {
  let demo: Harness;
  let slow: Harness;
  beforeAll(async () => {
    demo = await startDemoHarness();
    slow = await startHarness({ arrays: [{ name: "fb-lab-01", scenario: "slow-nfs" }] });
  });
  afterAll(async () => Promise.all([demo.close(), slow.close()]));

  test.each([
    ["the demo arrays", () => demo],
    ["the slow-nfs incident", () => slow],
  ] as const)(
    "on %s",
    async (_, harness) => {
      expect(LOOKUPS.length).toBeGreaterThan(100);
      const found: string[] = [];
      let tables = 0;
      for (const line of LOOKUPS) {
        const blocks = messagesOf(await harness().run("alice", line)).flatMap((m) => m.blocks);
        tables += blocks.filter((b) => b.type === "table").length;
        for (const bad of mixedInBlocks(blocks)) found.push(`${line}: ${bad}`);
      }
      expect(tables).toBeGreaterThan(50);
      expect(found).toEqual([]);
    },
    120_000,
  );

  test("--where and --sort compare a column of one unit by value", async () => {
    const all = messagesOf(await slow.run("alice", "perf clients --sort read_bytes_per_sec-"))[0];
    const table = all?.blocks.find((b) => b.type === "table");
    if (table?.type !== "table") throw new Error("no perf clients table");
    const cells = table.rows.map((r) => r["read_bytes_per_sec"] ?? "");
    const values = columnNumbers(cells) ?? [];
    expect(values.length).toBe(cells.length);
    expect([...values].sort((a, b) => (b ?? 0) - (a ?? 0))).toEqual(values);
    const big = messagesOf(await slow.run("alice", "perf clients --where 'read bytes per sec > 1G'"))[0];
    const kept = big?.blocks.find((b) => b.type === "table");
    if (kept?.type !== "table") throw new Error("no filtered table");
    expect(kept.rows.length).toBe(values.filter((v) => (v ?? 0) > 2 ** 30).length);
    // Without the flood, the unit is that of the rows kept, read from the rows as the array gave them.
    const small = messagesOf(await slow.run("alice", "perf clients --where 'read bytes per sec < 1G'"))[0];
    const rest = small?.blocks.find((b) => b.type === "table");
    if (rest?.type !== "table") throw new Error("no filtered table");
    const units = new Set(rest.rows.map((r) => /[KMGT]iB/.exec(r["read_bytes_per_sec"] ?? "")?.[0]));
    expect([...units]).toEqual(["MiB"]);
  });
});
