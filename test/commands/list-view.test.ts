/**
 * --where, --sort and --limit on lists: one implementation over the table a list shows, so computed columns
 * (Used %) filter and sort like stored ones, and with --array all they apply to the merged rows.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ arrays: [{ name: "lab-1" }, { name: "lab-2" }] });
});
afterAll(async () => h.close());

const tableOf = async (text: string) => {
  const m = messagesOf(await h.run("carol", text))[0];
  const t = m?.blocks.find((b) => b.type === "table");
  if (t?.type !== "table") throw new Error(`no table in ${JSON.stringify(m)}`);
  return { table: t, message: m };
};
const cells = (rows: Record<string, string>[], ...keys: string[]) =>
  rows.map((r) => keys.map((k) => r[k]).join(" "));

describe("fs list over every array", () => {
  test("over-90 % file systems on every array, fullest first, in one command", async () => {
    const { table, message } = await tableOf(`fs list --array all --where "used% > 90" --sort used%-`);
    expect(cells(table.rows, "array", "name", "pct")).toEqual([
      "lab-1 scratch 112%",
      "lab-2 scratch 112%",
      "lab-1 builds 97%",
      "lab-2 builds 97%",
      "lab-1 projects 93.6%",
      "lab-2 projects 93.6%",
      "lab-1 finance 93%",
      "lab-2 finance 93%",
      "lab-1 logs 91.3%",
      "lab-2 logs 91.3%",
    ]);
    expect(message?.text).toContain("10 where used% > 90");
  });

  test("--limit counts the merged, sorted rows, not rows per array", async () => {
    const { table } = await tableOf("fs list --array all --sort used- --limit 3");
    expect(cells(table.rows, "array", "name")).toEqual([
      "lab-1 backups",
      "lab-2 backups",
      "lab-1 ml-datasets",
    ]);
    expect(table.totalRows).toBe(22);
  });

  test("sizes with units, the column by its key, and two conditions", async () => {
    const { table } = await tableOf(`fs list --array lab-1 --where "size >= 20T and protocols ~ smb"`);
    expect(cells(table.rows, "name")).toEqual(["home", "media"]);
  });

  test("an unknown column is refused with the nearest names", async () => {
    const text = textOf(await h.run("carol", `fs list --array lab-1 --where "usd% > 90"`));
    expect(text).toContain("this list has no column `usd%`");
    expect(text).toContain("Did you mean `used%`");
  });

  test("text compared with > is refused, not silently empty", async () => {
    const text = textOf(await h.run("carol", `fs list --array lab-1 --where "name > b"`));
    expect(text).toContain("use = != or ~ for text");
  });
});

describe("catalogue lists get the same", () => {
  test("hardware list: only the unhealthy components, on every array", async () => {
    const { table } = await tableOf(`hardware list --array all --where "status != ✓ healthy"`);
    expect(cells(table.rows, "_array", "name")).toEqual(["lab-1 CH1.FB5", "lab-2 CH1.FB5"]);
  });

  test("--sort by a shown column the array cannot sort on", async () => {
    const { table } = await tableOf(
      "hardware list --array lab-1 --where 'type = fb' --sort temperature- --limit 2",
    );
    expect(table.rows.map((r) => r["name"])).toEqual(["CH1.FB4", "CH1.FB2"]);
  });
});

describe("unhealthy components over several arrays", () => {
  test("hardware list --array all names the array of each unhealthy component", async () => {
    const text = textOf(await h.run("carol", "hardware list --array all"));
    expect(text).toContain("✗ 2 items not healthy: CH1.FB5 on lab-1, CH1.FB5 on lab-2");
  });

  test("on one array the line stays short", async () => {
    const text = textOf(await h.run("carol", "hardware list --array lab-2"));
    expect(text).toMatch(/✗ 1 item not healthy: CH1\.FB5$/m);
  });
});
