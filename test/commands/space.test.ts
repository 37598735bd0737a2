import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SPLIT_ARRAYS_MAX } from "../../commands/space.js";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";
import { requestCount } from "../helpers/wire.js";

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

describe("space over a fleet", () => {
  const name = (i: number) => `fb-${String(i).padStart(3, "0")}`;
  const COUNT = SPLIT_ARRAYS_MAX + 6;
  let fleet: Harness;
  beforeAll(async () => {
    // One simulator serves every configured array (real HTTPS); a tag selects a few of them.
    fleet = await startHarness({
      arrays: Array.from({ length: COUNT }, (_, i) => ({
        name: name(i),
        tags: i < 3 ? ["few"] : [],
        ...(i === 0 ? {} : { sharesWith: name(0) }),
      })),
      config: { fan_out_deadline: "60s" },
      tuning: { timeouts: { connectMs: 30_000, readMs: 30_000 } },
    });
  });
  afterAll(async () => fleet.close());

  const spaceCalls = () =>
    requestCount(fleet.sims.get(name(0))!.control.stats(), "GET /api/1.12/arrays/space");

  test("past the split's limit each array's totals are read, without the space by kind, and a note says so", async () => {
    const before = spaceCalls();
    const m = messagesOf(await fleet.run("carol", "space --array all"))[0]!;
    // One call for each array's totals: the two by kind were not made.
    expect(spaceCalls() - before).toBe(COUNT);
    const table = m.blocks.find((b) => b.type === "table");
    if (table?.type !== "table") throw new Error("no table");
    const labels = table.columns.map((c) => c.label);
    expect(labels).toContain("Held by destroyed");
    expect(labels).not.toContain("File systems");
    expect(labels).not.toContain("Object store");
    // The table shows the first rows; the CSV holds every array, without the two columns either.
    const csv = String(m.attachments?.find((a) => a.filename.endsWith(".csv"))?.content ?? "")
      .trim()
      .split("\n");
    expect(csv).toHaveLength(COUNT + 1);
    expect(csv[0]).toMatch(/Held by destroyed/);
    expect(csv[0]).not.toMatch(/File systems|Object store/);
    expect(textOf([{ kind: "reply", message: m }])).toContain(
      `Space by kind (file systems, object store) is read for up to ${SPLIT_ARRAYS_MAX} arrays at a time`,
    );
  });

  test("a few arrays of the same fleet get the space by kind", async () => {
    const before = spaceCalls();
    const m = messagesOf(await fleet.run("carol", "space --array tag:few"))[0]!;
    expect(spaceCalls() - before).toBe(3 * 3);
    const table = m.blocks.find((b) => b.type === "table");
    if (table?.type !== "table") throw new Error("no table");
    expect(table.columns.map((c) => c.label)).toEqual(
      expect.arrayContaining(["File systems", "Object store"]),
    );
    expect(textOf([{ kind: "reply", message: m }])).not.toContain("Space by kind");
  });
});
