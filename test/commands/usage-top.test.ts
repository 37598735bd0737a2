import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

const tableRows = async (text: string) => {
  const m = messagesOf(await h.run("carol", text))[0];
  const t = m?.blocks.find((b) => b.type === "table");
  if (t?.type !== "table") throw new Error(`no table in ${JSON.stringify(m)}`);
  return t.rows;
};

describe("fs top", () => {
  test("the largest file systems and buckets together, largest first, as the simulator holds them", async () => {
    const state = h.sims.get("lab-1")?.state;
    if (!state) throw new Error("no simulator");
    const expected = [
      ...[...state.fileSystems.values()]
        .filter((f) => !f.destroyed)
        .map((f) => [f.name, f.space.virtual] as const),
      ...[...state.buckets.values()]
        .filter((b) => !b.destroyed)
        .map((b) => [b.name, b.space.virtual] as const),
    ]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([n]) => n);
    const rows = await tableRows("fs top --limit 5");
    expect(rows.map((r) => r["name"])).toEqual(expected);
    expect(rows.map((r) => r["kind"])).toContain("bucket");
  });

  test("--since compares the totals with the array's history and says there is none per object", async () => {
    const text = textOf(await h.run("carol", "fs top --since 7d --limit 3"));
    expect(text).toMatch(/\*file systems\* in total: [\d.]+ TiB now, [\d.]+ TiB 7d ago: \+[\d.]+ TiB/);
    expect(text).toMatch(/\*object store\* in total: /);
    expect(text).toContain("there is no history per file system, bucket, user or group (REST 1.x)");
  });

  test("with a file system: its largest users and groups", async () => {
    const rows = await tableRows("fs top projects");
    expect(rows.map((r) => `${r["kind"]}:${r["name"]}`)).toEqual([
      "file system:projects",
      "group:engineering",
      "group:research",
    ]);
  });
});

describe("snapshots per policy and per file system", () => {
  test("snapshot list --policy lists only what that policy made", async () => {
    const text = textOf(await h.run("carol", "snapshot list --policy hourly"));
    expect(text).toContain("24 snapshots made by policy hourly on array lab-1");
    expect(text).not.toContain("home.");
    expect(textOf(await h.run("carol", "snapshot list --policy nope"))).toContain(
      'There is no snapshot policy named "nope" on lab-1.',
    );
  });

  test("snapshot count splits policy and manual snapshots per file system", async () => {
    const rows = await tableRows("snapshot count");
    expect(rows[0]).toMatchObject({ fs: "builds", live: "24", policy: "24 (hourly)", manual: "0" });
    expect(rows.find((r) => r["fs"] === "home")).toMatchObject({
      live: "11",
      policy: "10 (daily)",
      manual: "1",
    });
    expect(rows.find((r) => r["fs"] === "projects")).toMatchObject({ live: "10", destroyed: "1" });
  });

  test("fs show names what protects a file system, and warns when nothing does", async () => {
    expect(textOf(await h.run("carol", "fs show home"))).toContain(
      "Protected by: snapshot policy daily; replica link to fb-dr-01 (policy daily)",
    );
    expect(textOf(await h.run("carol", "fs show media"))).toContain(
      "Protected by: ⚠ nothing: no snapshot policy and no replica link",
    );
  });
});
