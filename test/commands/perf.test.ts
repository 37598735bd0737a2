import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MAX_POINTS, resolutionFor } from "../../commands/perf.js";
import { chartFilename, compactCount, thin } from "../../commands/perf-chart.js";
import type { Block, Message } from "../../src/core/presentation/message.js";
import { decodePng } from "../core/chart-decode.js";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";

const HOUR = 3_600_000;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    arrays: [
      { name: "lab-1", tags: ["prod"] },
      { name: "lab-2", tags: ["prod"] },
      { name: "old-1", versions: "1.0-1.2" },
      { name: "older-1", versions: "1.0-1.1" },
    ],
  });
});
afterAll(async () => h.close());

const answer = async (text: string): Promise<Message> => {
  const m = messagesOf(await h.run("carol", text))[0];
  if (!m) throw new Error(`no answer to ${text}`);
  return m;
};
const tableIn = (m: Message) => {
  const t = m.blocks.find((b) => b.type === "table");
  if (t?.type !== "table") throw new Error(`no table in ${JSON.stringify(m.blocks)}`);
  return t;
};
const imageIn = (m: Message): Extract<Block, { type: "image" }> | undefined => {
  const b = m.blocks.find((x) => x.type === "image");
  return b?.type === "image" ? b : undefined;
};
/** Queries of the history calls (those with start_time) the simulator of `array` received. */
const historyQueries = (array: string) =>
  (h.sims.get(array)?.control.stats().recent ?? [])
    .filter((r) => r.path.endsWith("/arrays/performance") && r.query.includes("start_time"))
    .map((r) => new URLSearchParams(r.query));

describe("perf now", () => {
  test("one row with reads, writes, bandwidth and latency", async () => {
    const m = await answer("perf --array lab-1");
    const [row, ...more] = tableIn(m).rows;
    expect(more).toEqual([]);
    expect(row).toMatchObject({ array: "lab-1" });
    expect(row?.["reads"]).toMatch(/^[\d,]+$/);
    expect(row?.["writes"]).toMatch(/^[\d,]+$/);
    expect(row?.["readBw"]).toMatch(/B\/s$/);
    expect(row?.["readMs"]).toMatch(/ m?s$/);
    expect(m.text).toMatch(/^Performance now on lab-1 \(all protocols\): lab-1 [\d,]+ IOPS/);
    expect(imageIn(m)).toBeUndefined();
    expect(m.attachments ?? []).toEqual([]);
  });

  test("fans out to one row per array", async () => {
    const rows = tableIn(await answer("perf --array tag:prod")).rows;
    expect(rows.map((r) => r["array"]).sort()).toEqual(["lab-1", "lab-2"]);
  });

  test("a protocol's share is smaller than the whole array's load", async () => {
    const iops = async (p: string) =>
      Number(
        tableIn(await answer(`perf --array lab-1 --protocol ${p}`)).rows[0]?.["reads"]?.replace(/,/g, ""),
      );
    expect(await iops("http")).toBeLessThan(await iops("all"));
  });

  test("REST 1.2 has no read/write bandwidth split: those cells are blank, the total and latency still show", async () => {
    const m = await answer("perf --array old-1");
    // The total still shows: input + output is the same sum whichever direction each names.
    expect(m.text).toMatch(/old-1 [\d,]+ IOPS, [\d.]+ [KMGT]?i?B\/s, /);
    const row = tableIn(m).rows[0];
    expect(row).toMatchObject({ array: "old-1", readBw: "–", writeBw: "–" });
    expect(row?.["readMs"]).toMatch(/ m?s$/);
  });
});

describe("perf --last", () => {
  test("24h: a summary row, and a PNG chart of IOPS and latency for the one array", async () => {
    const m = await answer("perf --array lab-1 --last 24h");
    const row = tableIn(m).rows[0];
    expect(row).toMatchObject({ array: "lab-1" });
    expect(Number(row?.["samples"])).toBeGreaterThanOrEqual(287);
    expect(Number(row?.["samples"])).toBeLessThanOrEqual(289);
    for (const k of ["iopsAvg", "iopsP95", "iopsMax"]) expect(row?.[k]).toMatch(/^[\d,]+$/);
    for (const k of ["bwAvg", "bwP95", "bwMax"]) expect(row?.[k]).toMatch(/B\/s$/);
    for (const k of ["latAvg", "latP95", "latMax"]) expect(row?.[k]).toMatch(/ m?s$/);
    const num = (k: string) => Number(row?.[k]?.replace(/,/g, ""));
    expect(num("iopsAvg")).toBeLessThanOrEqual(num("iopsP95"));
    expect(num("iopsP95")).toBeLessThanOrEqual(num("iopsMax"));

    const [q] = historyQueries("lab-1").slice(-1);
    expect(q?.get("resolution")).toBe("300000");
    expect(q?.get("protocol")).toBe("all");
    expect(Number(q?.get("end_time")) - Number(q?.get("start_time"))).toBe(24 * HOUR);

    const image = imageIn(m);
    expect(image?.file.contentType).toBe("image/png");
    expect(image?.file.filename).toBe("perf-lab-1-24h.png");
    expect(image?.altText).toMatch(
      /^Line chart of reads, writes .* on lab-1 over the last 24h; peak \S+ IOPS/,
    );
    const png = decodePng(image?.file.content as Uint8Array);
    expect([png.width, png.height]).toEqual([800, 360]);
    expect(png.chunks).toEqual(["IHDR", "PLTE", "IDAT", "IEND"]);
    expect(textOf([{ kind: "reply", message: m }])).toContain("5m samples from");
  });

  test("1h of NFS: 30-second samples of the NFS share", async () => {
    const m = await answer("perf --array lab-1 --last 1h --protocol nfs");
    expect(m.text).toMatch(/^Performance on lab-1, last 1h \(NFS\)/);
    const [q] = historyQueries("lab-1").slice(-1);
    expect(q?.get("resolution")).toBe("30000");
    expect(q?.get("protocol")).toBe("nfs");
    expect(imageIn(m)).toBeDefined();
  });

  test("several arrays: one row each and no chart, saying how to get one", async () => {
    const m = await answer("perf --array tag:prod --last 7d");
    expect(
      tableIn(m)
        .rows.map((r) => r["array"])
        .sort(),
    ).toEqual(["lab-1", "lab-2"]);
    expect(imageIn(m)).toBeUndefined();
    expect(textOf([{ kind: "reply", message: m }])).toContain("Charts are drawn for one array at a time");
  });

  test("a window it cannot chart says what is allowed, and asks the array nothing", async () => {
    const before = h.sims.get("lab-1")?.control.stats().total;
    for (const bad of ["2y", "soon", "1m", "90d"]) {
      const text = textOf(await h.run("carol", `perf --array lab-1 --last ${bad}`));
      expect(text, bad).toContain("use a duration from 5m to 30d, such as 1h, 24h or 7d");
      expect(text).not.toMatch(/at .*\.ts:\d+/);
    }
    expect(h.sims.get("lab-1")?.control.stats().total).toBe(before);
  });

  test("an unknown protocol lists the ones there are", async () => {
    const text = textOf(await h.run("carol", "perf --array lab-1 --protocol ftp"));
    expect(text).toContain("--protocol: use one of all, nfs, smb, http, s3");
    expect(textOf(await h.run("carol", "perf --array lab-1 --protocol NFS"))).toContain(
      "Performance now on lab-1 (NFS)",
    );
  });

  test("an array older than REST 1.2 has no performance history: the answer says so plainly", async () => {
    const text = textOf(await h.run("carol", "perf --array older-1 --last 1h"));
    expect(text).toContain("GET /arrays/performance needs REST 1.2, older-1 runs");
    expect(text).not.toContain("Something went wrong");
  });

  test("someone without a role is refused", async () => {
    const text = textOf(await h.run("mallory", "perf --array lab-1"));
    expect(text).toContain("needs the viewer role on array lab-1");
    expect(text).not.toMatch(/Performance now/);
  });
});

describe("resolution", () => {
  test("keeps every supported window within the point budget at the finest spacing that fits", () => {
    expect(resolutionFor(HOUR)).toBe(30_000);
    expect(resolutionFor(24 * HOUR)).toBe(300_000);
    expect(resolutionFor(7 * 24 * HOUR)).toBe(HOUR);
    for (const w of [5 * 60_000, HOUR, 6 * HOUR, 24 * HOUR, 3 * 24 * HOUR, 7 * 24 * HOUR, 30 * 24 * HOUR]) {
      expect(w / resolutionFor(w), String(w)).toBeLessThanOrEqual(MAX_POINTS);
    }
  });
});

describe("chart helpers", () => {
  test("thinning keeps short series whole and long ones under the cap, first and last kept", () => {
    const short = [1, 2, 3];
    expect(thin(short, 10)).toBe(short);
    const long = Array.from({ length: 10_000 }, (_, i) => i);
    const kept = thin(long, 1600);
    expect(kept.length).toBeLessThanOrEqual(1600);
    expect(kept[0]).toBe(0);
    expect(kept.at(-1)).toBe(9_999);
    expect([...kept].sort((a, b) => a - b)).toEqual(kept);
    // A length that fills the budget exactly with every k-th sample: the last one still makes it.
    for (const n of [3_200, 4_800, 1_601]) {
      const series = Array.from({ length: n }, (_, i) => i);
      const t = thin(series, 1600);
      expect(t.length, `${n} samples`).toBeLessThanOrEqual(1600);
      expect(t.at(-1), `${n} samples`).toBe(n - 1);
    }
  });

  test("file names and tick labels stay plain whatever the array is called", () => {
    expect(chartFilename("lab 1/<b>", "24h")).toBe("perf-lab_1_b_-24h.png");
    expect([0, 950, 2500, 1_000_000, 12_500_000].map(compactCount)).toEqual([
      "0",
      "950",
      "2.5K",
      "1M",
      "12.5M",
    ]);
  });
});
