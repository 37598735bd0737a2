/**
 * `--array all` over a fleet stays readable: the arrays that answered, a few failures by name and one line
 * counting the rest, never a line per silent array. A thousand configured arrays are served by two simulators
 * (real HTTPS): ten answer, the other 990 share one that has gone away.
 */
import { afterEach, describe, expect, test } from "vitest";
import type { Effect } from "../../src/core/context/pipeline-types.js";
import { type Harness, startHarness, textOf } from "./harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const name = (i: number) => `fb-${String(i).padStart(4, "0")}`;

function reply(effects: readonly Effect[]): Extract<Effect, { kind: "reply" }> {
  const r = effects.find((e) => e.kind === "reply");
  if (r?.kind !== "reply") throw new Error("no reply");
  return r;
}

describe("a fan-out over a large fleet", () => {
  test("1,000 arrays, 990 gone: ten rows, three failures named and one summary line for the rest", async () => {
    h = await startHarness({
      arrays: Array.from({ length: 1000 }, (_, i) => ({
        name: name(i),
        ...(i === 0 || i === 10 ? {} : { sharesWith: name(i < 10 ? 0 : 10) }),
      })),
      config: { fan_out_deadline: "60s" },
      // The healthy ten must not read as failed because a busy machine was slow to connect.
      tuning: { timeouts: { connectMs: 30_000, readMs: 30_000 }, downAfterFailures: 3 },
    });
    await h.sims.get(name(10))?.control.down();
    const r = reply(await h.run("carol", "space --array all"));
    const blocks = r.message.blocks;
    const table = blocks.find((b) => b.type === "table");
    expect(table?.type === "table" ? table.rows.map((row) => row["array"]) : []).toEqual(
      Array.from({ length: 10 }, (_, i) => name(i)),
    );
    const failures = blocks.filter((b) => b.type === "context" && b.text.markup.startsWith("⚠"));
    expect(failures).toHaveLength(4);
    const summary = failures.at(-1);
    expect(summary?.type === "context" ? summary.text.markup : "").toMatch(
      /^⚠ 987 more arrays failed: fb-0013, fb-0014, fb-0015, fb-0016, fb-0017 and 982 more\.$/,
    );
    const text = textOf([r]);
    expect(text).not.toContain(name(999));
    expect(blocks.length).toBeLessThanOrEqual(20);

    // --limit caps the merged table; the CSV holds every array that answered.
    const limited = reply(await h.run("carol", "space --array all --limit 3")).message;
    const small = limited.blocks.find((b) => b.type === "table");
    expect(small?.type === "table" ? small.rows.map((row) => row["array"]) : []).toHaveLength(3);
    const csv = limited.attachments?.find((a) => a.filename.endsWith(".csv"));
    const csvRows = String(csv?.content ?? "")
      .trim()
      .split("\n");
    expect(csvRows.slice(1).map((l) => l.split(",")[0])).toEqual(
      Array.from({ length: 10 }, (_, i) => name(i)),
    );
  });

  test("arrays still working at the deadline are one line: a count and a few names", async () => {
    h = await startHarness({
      arrays: Array.from({ length: 31 }, (_, i) => ({
        name: name(i),
        ...(i > 1 ? { sharesWith: name(1) } : {}),
      })),
      config: { fan_out_deadline: "0.5s" },
      tuning: { timeouts: { connectMs: 2000, readMs: 1000 } },
    });
    // Every array has answered once (sessions and versions in place); then the shared one stalls on listings.
    await h.pool.checkAll();
    await reply(await h.run("carol", "fs list --array all")).later;
    h.sims.get(name(1))?.control.addLatency({ path: "/file-systems", ms: 60_000 });
    const r = reply(await h.run("carol", "fs list --array all"));
    const waiting = r.message.blocks.filter((b) => b.type === "context" && b.text.markup.startsWith("⏳"));
    expect(waiting).toHaveLength(1);
    expect(waiting[0]?.type === "context" ? waiting[0].text.markup : "").toBe(
      "⏳ 30 arrays did not answer within 0.5 s (fb-0001, fb-0002, fb-0003, fb-0004, fb-0005 and 25 more); their answers are added here when they come.",
    );
    expect(r.message.text).toContain(
      "30 arrays (fb-0001, fb-0002, fb-0003, fb-0004, fb-0005 and 25 more) did not answer",
    );
    await r.later;
  });
});
