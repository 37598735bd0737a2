import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { hashString } from "../../src/simulator/models/random.js";
import { SLOW_NFS_CLIENT } from "../../src/simulator/scenarios/slow-nfs.js";
import { decodePng } from "../core/chart-decode.js";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    arrays: [
      { name: "slow-1", scenario: "slow-nfs" },
      { name: "quiet-1", scenario: "empty" },
      { name: "demo-1", scenario: "demo" },
    ],
  });
});
afterAll(async () => h.close());

/** The numbered findings of a single-array answer, in order. */
async function findings(text: string): Promise<string[]> {
  const m = messagesOf(await h.run("carol", text))[0]!;
  const list = m.blocks.find((b) => b.type === "section" && /^1\. /.test(b.text.markup));
  if (list?.type !== "section") return [];
  return list.text.markup.split("\n");
}

describe("diagnose", () => {
  test("on the slow-NFS scenario NFS latency comes first and names the client responsible, which comes next", async () => {
    const lines = await findings("diagnose --array slow-1");
    expect(lines[0]).toMatch(/^1\. \*NFS latency [\d.]+ ms\*, usual [\d.]+ ms/);
    expect(lines[0]).toContain(`Likely cause: client \`${SLOW_NFS_CLIENT}\``);
    expect(lines[1]).toMatch(/^2\. \*One client dominates\*/);
    expect(lines[1]).toContain(SLOW_NFS_CLIENT);
    // Other protocols are as usual: none of them is a finding.
    expect(lines.join("\n")).not.toMatch(/\*(SMB|S3|HTTP) /);
  });

  test("a dominant client's share is of NFS operations now, the moment its own figures are from", async () => {
    // Clients have no history on an array: the share is of NFS read with them (diagnose-arithmetic checks the
    // figures against the wire), never of the window's mean the evidence table shows.
    const text = textOf(await h.run("carol", "diagnose --array slow-1"));
    const share = new RegExp(
      `client \`${SLOW_NFS_CLIENT.replace(/\./g, "\\.")}\` does ([\\d.]+)% of NFS operations now \\(([\\d,]+) of ([\\d,]+) ops/s\\)`,
    ).exec(text);
    expect(share).not.toBeNull();
    const [pct, ops, of] = [
      Number(share![1]),
      Number(share![2]!.replace(/,/g, "")),
      Number(share![3]!.replace(/,/g, "")),
    ];
    expect(pct).toBeCloseTo((100 * ops) / of, 0);
    // The client is part of the NFS total, never more than all of it.
    expect(ops).toBeLessThan(of);
    expect(text).not.toContain("of all operations");
  });

  test("a file system created a minute ago with no data is not among the busiest", async () => {
    // A name the simulator would give one of its heaviest loads, were the file system in use.
    const name = [
      "fresh-a",
      "fresh-b",
      "fresh-c",
      "fresh-d",
      "fresh-e",
      "fresh-f",
      "fresh-g",
      "fresh-h",
    ].reduce((a, b) => (hashString(b) % 100 > hashString(a) % 100 ? b : a));
    expect(textOf(await h.run("bob", `fs create ${name} 1T --array demo-1`))).not.toMatch(/error|refused/i);
    const text = textOf(await h.run("carol", "diagnose --array demo-1"));
    const busiest = /Busiest file systems: ([^\n]*)/.exec(text)?.[1] ?? "";
    expect(busiest).not.toBe("");
    expect(busiest).not.toContain(name);
  });

  test("a quiet array is said plainly to have nothing abnormal", async () => {
    const effects = await h.run("carol", "diagnose --array quiet-1");
    expect(textOf(effects)).toContain("*Nothing abnormal* on quiet-1 in the last 1h");
    expect(messagesOf(effects)[0]?.text).toBe("Diagnosis of quiet-1, last 1h: nothing abnormal");
  });

  test("what is wrong besides performance is ranked too: lagging replication and open critical alerts", async () => {
    const lines = await findings("diagnose --array demo-1 --since 30m");
    const all = lines.join("\n");
    expect(all).toMatch(/Replication paused\*: bucket veeam-repo → fb-dr-01 lags 1d/);
    expect(all).not.toContain("latency");
  });

  test("alerts are numbered as `alert list` numbers them, the number `alert show` takes", async () => {
    const all = (await findings("diagnose --array demo-1 --since 30m")).join("\n");
    const m = /\*critical alert (\d+)\* \(code 1000\) open: Blade CH1\.FB5 is unhealthy/.exec(all);
    expect(m).not.toBeNull();
    const n = m![1]!;
    // The same alert, by that number, in the list and in show.
    expect(textOf(await h.run("carol", "alert list --array demo-1"))).toMatch(
      new RegExp(`\\b${n}\\b[^\\n]*critical[^\\n]*CH1\\.FB5`),
    );
    expect(textOf(await h.run("carol", `alert show ${n} --array demo-1`))).toContain(
      "Blade CH1.FB5 is unhealthy",
    );
  });

  test("an array above 80 % full is a finding, ranked by how full it is", async () => {
    const st = h.sims.get("demo-1")!.state;
    const before = st.array.capacity;
    try {
      st.array.capacity = 280 * 2 ** 40;
      const all = (await findings("diagnose --array demo-1")).join("\n");
      expect(all).toMatch(/\*Array 9\d(\.\d)?% full\*: above 80 %/);
    } finally {
      st.array.capacity = before;
    }
    expect((await findings("diagnose --array demo-1")).join("\n")).not.toContain("% full*");
  });

  test("the chart shows the window over a shaded baseline band, at a size Slack previews legibly", async () => {
    const m = messagesOf(await h.run("carol", "diagnose --array slow-1"))[0]!;
    const img = m.blocks.find((b) => b.type === "image");
    if (img?.type !== "image") throw new Error("no chart");
    expect(img.title).toContain("NFS on slow-1");
    const png = decodePng(img.file.content as Uint8Array);
    let band = 0;
    for (let x = 0; x < png.width; x++) for (let y = 0; y < png.height; y++) if (png.at(x, y) === 10) band++;
    expect(band).toBeGreaterThan(1000);
  });

  test("--array all answers with a line per array", async () => {
    const m = messagesOf(await h.run("carol", "diagnose --array all"))[0]!;
    const table = m.blocks.find((b) => b.type === "table");
    if (table?.type !== "table") throw new Error("no table");
    const byArray = Object.fromEntries(table.rows.map((r) => [r["array"], r["first"]]));
    expect(byArray["quiet-1"]).toBe("nothing abnormal");
    expect(byArray["slow-1"]).toMatch(/^NFS latency/);
    expect(Object.keys(byArray).sort()).toEqual(["demo-1", "quiet-1", "slow-1"]);
  });

  test("a window it cannot diagnose is refused with the range it accepts", async () => {
    expect(textOf(await h.run("carol", "diagnose --since 3d"))).toContain("from 15m to 24h");
  });
});
