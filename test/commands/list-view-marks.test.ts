/**
 * `--where` compares a cell's value, not the mark it carries (`✓ healthy` is `healthy`, `64 ⚠ under 90` is 64),
 * for every decorated column of every list: the lists are the catalogue's (each with its list example) and
 * replication status, run on the demo arrays; a column counts as decorated when a cell shows a mark.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CATALOGUE } from "../../commands/catalogue/index.js";
import { CELL_MARKS, cellValue, markAfter, markBefore } from "../../src/core/presentation/cell-marks.js";
import type { Block } from "../../src/core/presentation/message.js";
import { type Harness, messagesOf } from "../core/harness.js";
import { startDemoHarness } from "./demo-examples.js";

let h: Harness;
beforeAll(async () => {
  h = await startDemoHarness();
});
afterAll(async () => h.close());

type Table = Extract<Block, { type: "table" }>;
const tableOf = async (line: string): Promise<Table | undefined> => {
  const t = messagesOf(await h.run("carol", line))[0]?.blocks.find((b) => b.type === "table");
  return t?.type === "table" ? t : undefined;
};
const marked = (cell: string) => CELL_MARKS.some((m) => cell.includes(m));

const LISTS = [
  ...CATALOGUE.filter((s) => s.examples?.list !== undefined).map((s) =>
    `${s.noun} list ${s.examples?.list ?? ""} --array all`.replace(/\s+/g, " "),
  ),
  "replication status --array all",
];

describe("--where on decorated columns", () => {
  test("every mark is read back: before a value and after one", () => {
    for (const m of CELL_MARKS) {
      expect(cellValue(markBefore(m, "healthy"))).toBe("healthy");
      expect(cellValue(markAfter("64", m, "under 90"))).toBe("64");
      expect(cellValue(markAfter("2027-01-30 09:12 UTC", m, "in 3d"))).toBe("2027-01-30 09:12 UTC");
    }
  });

  test("= and != on each value of every decorated column keep exactly the rows of that value", async () => {
    const decorated: string[] = [];
    for (const line of LISTS) {
      const table = await tableOf(line);
      if (!table) continue;
      for (const column of table.columns) {
        const cells = table.rows.map((r) => r[column.key] ?? "");
        if (!cells.some(marked)) continue;
        decorated.push(`${line}: ${column.label}`);
        const label = column.label.replace(/\s+/g, "");
        // Values the grammar cannot carry (a comma joins conditions) are left to the other values.
        const values = [...new Set(cells.map(cellValue))].filter((v) => !/[,'"]|\band\b|^–$/.test(v));
        const total = table.totalRows ?? table.rows.length;
        for (const v of values) {
          const kept = await tableOf(`${line} --where "${label} = '${v}'"`);
          const dropped = await tableOf(`${line} --where "${label} != '${v}'"`);
          const valuesOf = (t: Table | undefined) =>
            (t?.rows ?? []).map((r) => cellValue(r[column.key] ?? ""));
          const said = `${line} --where ${label} = / != ${v}`;
          expect(new Set(valuesOf(kept)), said).toEqual(new Set([v]));
          expect(valuesOf(dropped), said).not.toContain(v);
          const count = (t: Table | undefined) => t?.totalRows ?? t?.rows.length ?? 0;
          expect(count(kept) + count(dropped), said).toBe(total);
          expect(count(kept), said).toBeGreaterThanOrEqual(cells.filter((c) => cellValue(c) === v).length);
        }
      }
    }
    // The demo has decorated columns of each kind: status marks, days left and a replication verdict.
    expect(decorated).toEqual(
      expect.arrayContaining([
        "hardware list --array all: Status",
        "certificate list --array all: Days left",
        "replication status --array all: Verdict",
      ]),
    );
  }, 60_000);

  test("hardware list --where 'status != healthy' is the unhealthy components only", async () => {
    const t = await tableOf(`hardware list --where "status != healthy"`);
    expect(t?.rows.map((r) => `${r["name"]} ${r["status"]}`)).toEqual(["CH1.FB5 ✗ unhealthy"]);
  });

  test("a value typed with its mark, as the cell shows it, means the same", async () => {
    const t = await tableOf(`hardware list --where "status != ✓ healthy"`);
    expect(t?.rows.map((r) => r["name"])).toEqual(["CH1.FB5"]);
  });
});
