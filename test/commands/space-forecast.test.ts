import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { decodePng } from "../core/chart-decode.js";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    arrays: [
      { name: "grow-1", scenario: "growth" },
      { name: "quiet-1", scenario: "demo" },
    ],
  });
});
afterAll(async () => h.close());

const DAY = 86_400_000;
const day = (s: string) => Date.parse(`${s}T00:00:00Z`);

/** The "100 % full" field: best date and the range's two ends. */
async function fullAt(text: string): Promise<{ at: number; from: number; to: number; image: boolean }> {
  const m = messagesOf(await h.run("carol", text))[0];
  const fields = m?.blocks.find((b) => b.type === "fields");
  if (fields?.type !== "fields") throw new Error(`no fields in ${m?.text}`);
  const value = fields.fields.find((f) => f.label === "100 % full")?.value.markup ?? "";
  const image = m?.blocks.some((b) => b.type === "image") ?? false;
  // A range under a day is not printed: the date alone.
  const same = /^(\d{4}-\d\d-\d\d) \(in \d+ days\)$/.exec(value);
  if (same) return { at: day(same[1]!), from: day(same[1]!), to: day(same[1]!), image };
  const hit = /^(\d{4}-\d\d-\d\d) \(in \d+ days; between (\d{4}-\d\d-\d\d) and (\d{4}-\d\d-\d\d)\)$/.exec(
    value,
  );
  if (!hit) throw new Error(`unexpected 100 % field: ${value}`);
  return { at: day(hit[1]!), from: day(hit[2]!), to: day(hit[3]!), image };
}

describe("space forecast", () => {
  test("on the growth scenario the 100 % date's range holds the true date, and more history narrows it", async () => {
    const truth = Number(h.sims.get("grow-1")!.state.effects?.truth?.["fullAt"]);
    const trueDay = day(new Date(truth).toISOString().slice(0, 10));
    const week = await fullAt("space forecast --array grow-1 --days 7");
    const month = await fullAt("space forecast --array grow-1");
    for (const f of [week, month]) {
      expect(f.from).toBeLessThanOrEqual(trueDay);
      expect(f.to).toBeGreaterThanOrEqual(trueDay);
    }
    expect(month.to - month.from).toBeLessThan(week.to - week.from);
    expect(Math.abs(month.at - trueDay)).toBeLessThanOrEqual(3 * DAY);
    expect(month.image).toBe(true);
  });

  test("the chart is a PNG at the size Slack previews, with the forecast band drawn", async () => {
    const m = messagesOf(await h.run("carol", "space forecast --array grow-1 --days 7"))[0]!;
    const img = m.blocks.find((b) => b.type === "image");
    if (img?.type !== "image") throw new Error("no image");
    const png = decodePng(img.file.content as Uint8Array);
    expect([png.width, png.height]).toEqual([1100, 520]);
    // The orange tint of the band (palette slot 11) covers part of the future.
    let tinted = 0;
    for (let x = 0; x < png.width; x += 4)
      for (let y = 0; y < png.height; y += 4) if (png.at(x, y) === 11) tinted++;
    expect(tinted).toBeGreaterThan(100);
    expect(m.text).toMatch(/growth .*\/day/);
  });

  test("growth per day is reported with its range and matches the scenario's rate", async () => {
    const truth = Number(h.sims.get("grow-1")!.state.effects?.truth?.["bytesPerDay"]);
    const text = textOf(await h.run("carol", "space forecast --array grow-1"));
    expect(text).toMatch(/Growth: [\d.]+ TiB\/day \([\d.]+ TiB to [\d.]+ TiB\)/);
    const best = Number(/Growth: ([\d.]+) TiB/.exec(text)?.[1]) * 2 ** 40;
    expect(Math.abs(best - truth) / truth).toBeLessThan(0.05);
  });

  test("not enough history is an answer, not an error", async () => {
    const effects = await h.run("carol", "space forecast --array grow-1 --days 1");
    expect(textOf(effects)).toContain("Not enough history");
    expect(messagesOf(effects)[0]?.blocks.some((b) => b.type === "image")).toBe(false);
  });

  test("--array all gives one line per array; --fs names the file system's own fill", async () => {
    const m = messagesOf(await h.run("carol", "space forecast --array all"))[0]!;
    const table = m.blocks.find((b) => b.type === "table");
    if (table?.type !== "table") throw new Error("no table");
    expect(table.rows.map((r) => r["array"]).sort()).toEqual(["grow-1", "quiet-1"]);
    const fs = textOf(await h.run("carol", "space forecast --array quiet-1 --fs home"));
    expect(fs).toMatch(/home\* holds [\d.]+ TiB of 20 TiB/);
    expect(textOf(await h.run("carol", "space forecast --array quiet-1 --fs nope"))).toContain(
      'no file system named "nope"',
    );
    expect(textOf(await h.run("carol", "space forecast --days 200d"))).toContain("from 1d to 90d");
  });
});
