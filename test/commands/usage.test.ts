import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Block } from "../../src/core/presentation/message.js";
import type { GroupQuota } from "../../src/flashblade/types.js";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

const tableOf = async (user: string, text: string) => {
  const m = messagesOf(await h.run(user, text))[0];
  const t = m?.blocks.find((b): b is Extract<Block, { type: "table" }> => b.type === "table");
  if (!t) throw new Error(`no table in ${JSON.stringify(m)}`);
  return { table: t, text: m?.text ?? "" };
};

describe("usage users|groups", () => {
  test("top N users of a file system, sorted by usage, matching the simulator's own usage table", async () => {
    const sim = h.sims.get("lab-1");
    if (!sim) throw new Error("no simulator");
    const { users } = sim.state;
    const onHome = [...users.usage.entries()].filter(([k]) => k.startsWith("home\u0000"));
    const expected = onHome
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([k]) => users.directory.find((d) => `home\u0000${d.id}` === k)?.name);
    const { table, text } = await tableOf("carol", "usage users home --top 3");
    expect(table.rows.map((r) => r["who"])).toEqual(expected);
    expect(table.rows.map((r) => r["who"])).toEqual(["alice", "dave", "carol"]);
    expect(text).toContain(`Top 3 of ${onHome.length} users by usage on home on array lab-1`);
  });

  test("quota and % of quota: their own, or the file system default; over quota is called out", async () => {
    const { table } = await tableOf("carol", "usage users home");
    const row = (name: string) => table.rows.find((r) => r["who"] === name);
    expect(row("alice")).toMatchObject({ used: "95.2 GiB", quota: "100 GiB", pct: "95.2%", status: "≥ 90%" });
    expect(row("dave")).toMatchObject({ quota: "50 GiB", pct: "125%", status: "over quota" });
    expect(row("erin")).toMatchObject({ used: "12.8 GiB", quota: "50 GiB (default)", pct: "25.6%" });
    const text = textOf(await h.run("carol", "usage users home"));
    expect(text).toContain("Over quota (their writes fail): dave on home.");
  });

  test("groups across every file system, largest first, with no quota shown as none", async () => {
    // Expected rows come from the array's own group usage listing: every group that owns data, largest first.
    const page = await h.pool.get("lab-1").get<GroupQuota>("/usage/groups");
    const expected = [...page.items]
      .filter((u) => (u.usage ?? 0) > 0)
      .sort((a, b) => (b.usage ?? 0) - (a.usage ?? 0))
      .map((u) => `${u.file_system?.name}/${u.group?.name}`);
    const { table } = await tableOf("carol", "usage groups");
    const got = table.rows.map((r) => `${r["fs"]}/${r["who"]}`);
    expect(got).toEqual(expected);
    expect(got.slice(0, 2)).toEqual(["backups/ops", "ml-datasets/research"]);
    expect(table.rows.find((r) => r["fs"] === "ml-datasets")).toMatchObject({ quota: "none", pct: "–" });
  });

  test("--over finds who is near or over their quota on every file system", async () => {
    const { table } = await tableOf("carol", "usage users --over 90");
    expect(table.rows.map((r) => `${r["fs"]}/${r["who"]}`).sort()).toEqual([
      "builds/svc-build",
      "home/alice",
      "home/carol",
      "home/dave",
    ]);
    const { table: over } = await tableOf("carol", "usage users --over 100");
    expect(over.rows.map((r) => r["who"])).toEqual(["dave"]);
  });

  test("an unknown file system is named, not answered as empty", async () => {
    expect(textOf(await h.run("carol", "usage users nope"))).toContain(
      'There is no file system named "nope"',
    );
  });

  test("before REST 1.6 there is no per-user usage, and the answer says so", async () => {
    const old = await startHarness({ arrays: [{ name: "old-1", versions: "1.0-1.5" }] });
    try {
      expect(textOf(await old.run("carol", "usage users home"))).toContain(
        "The API for per-user and per-group usage needs REST 1.6, old-1 runs 1.5. Nothing was sent.",
      );
    } finally {
      await old.close();
    }
  });
});
