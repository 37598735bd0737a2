import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";

const TIB = 2 ** 40;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    arrays: [
      { name: "lab-1", tags: ["prod"] },
      { name: "lab-2", tags: ["dr"] },
    ],
  });
});
afterAll(async () => h.close());

const tableOf = async (text: string) => {
  const m = messagesOf(await h.run("carol", text))[0];
  const t = m?.blocks.find((b) => b.type === "table");
  if (t?.type !== "table") throw new Error(`no table in ${JSON.stringify(m)}`);
  return t;
};

describe("space", () => {
  test("shows capacity, usage and the space held by destroyed file systems", async () => {
    const table = await tableOf("space --array lab-1");
    expect(table.rows).toHaveLength(1);
    const row = table.rows[0]!;
    expect(row["array"]).toBe("lab-1");
    expect(row["capacity"]).toMatch(/TiB$/);
    // The demo array holds one destroyed file system awaiting eradication.
    expect(row["destroyed"]).toMatch(/\(1\)$/);
    expect(textOf(await h.run("carol", "space --array lab-1"))).toContain("until eradicated");
  });

  test("fans out to every array in one table", async () => {
    const table = await tableOf("space --array all");
    expect(table.rows.map((r) => r["array"]).sort()).toEqual(["lab-1", "lab-2"]);
  });

  test("warns about a nearly full array and names the command that finds the largest consumers", async () => {
    const sim = h.sims.get("lab-2")!;
    const before = sim.state.array.capacity;
    try {
      sim.state.array.capacity = 300 * TIB;
      const text = textOf(await h.run("carol", "space --array tag:dr"));
      expect(text).toMatch(/lab-2\* is \d+(\.\d)?% full/);
      expect(text).toContain("fs list --sort used- --limit 10 --array lab-2");
      expect(textOf(await h.run("carol", "space --array lab-1"))).not.toContain("% full.");
    } finally {
      sim.state.array.capacity = before;
    }
  });
});

describe("space and fs top say which figure is which", () => {
  test("fs top's file-system sizes are labelled logical, space's physical, on the same array", async () => {
    const top = messagesOf(await h.run("carol", "fs top --array lab-1"))[0]!;
    const table = top.blocks.find((b) => b.type === "table");
    if (table?.type !== "table") throw new Error("no table");
    expect(table.columns.map((c) => c.label)).toContain("Used (logical)");
    const space = textOf(await h.run("carol", "space --array lab-1"));
    expect(space).toMatch(/Physical space: what the array stores, after data reduction/);
    expect(space).toMatch(/`fs top` and `fs list` show logical sizes/);
  });
});
