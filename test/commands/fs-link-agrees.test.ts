/**
 * `replica-link fs list` on the demo arrays: for every link, the snapshot named as the last one sent is a
 * snapshot `snapshot list` has, taken when the list says, and the lag beside it is measured from that moment,
 * while a link catches up, runs on its schedule and is paused (the on-call round of issue 24).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { formatDuration } from "../../src/core/words/units.js";
import { DEMO_ARRAYS } from "../../src/local/demo.js";
import { type Harness, startHarness, textOf } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    arrays: DEMO_ARRAYS.map((a) => ({ name: a.name, tags: [...a.tags], scenario: a.scenario })),
    config: { channels: { default_array: DEMO_ARRAYS[0].name } },
    shareClock: true,
  });
});
afterAll(() => h.close());

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** Every outbound row of the list with its lag, the snapshot it names and when it says it was taken. */
async function rows() {
  const text = textOf(await h.run("carol", "replica-link fs list --array all"));
  const out: { array: string; link: string; lag: string; snapshot: string; taken: string }[] = [];
  for (const line of text.split("\n")) {
    const m = /^(\S+) \| (.+? → \S+) \| [^|]+ \| [^|]+ \| ([^|]+) \| (\S+), taken (.+? UTC)/.exec(line);
    const [, array = "", link = "", lag = "", snapshot = "", taken = ""] = m ?? [];
    if (m) out.push({ array, link, lag: lag.trim(), snapshot, taken });
  }
  return { text, rows: out };
}

async function expectAgreement(least: number) {
  const { text, rows: found } = await rows();
  expect(found.length, text).toBeGreaterThanOrEqual(least);
  for (const r of found) {
    const snap = h.sims.get(r.array)?.state.snapshots.get(r.snapshot);
    expect(snap, `${r.link}: ${r.snapshot} is not a snapshot of ${r.array}`).toBeDefined();
    expect(r.taken, r.link).toBe(utc(snap?.created ?? 0));
    expect(r.lag, r.link).toBe(formatDuration(h.clock.now - (snap?.created ?? 0)));
  }
  return found;
}

describe("a file system link's lag and the last snapshot it sent agree", () => {
  test("on the demo as it starts: catching up, on schedule, and sending a snapshot by hand", async () => {
    const found = await expectAgreement(3);
    const names = textOf(await h.run("carol", "snapshot list --fs builds --limit 100"));
    for (const r of found.filter((x) => x.link.startsWith("builds"))) expect(names).toContain(r.snapshot);
    expect(found.find((r) => r.link.startsWith("builds"))?.lag).toMatch(/^[45]h/);
  });

  test("half an hour later the catching-up link has sent more, and still agrees", async () => {
    const before = (await rows()).rows.find((r) => r.link.startsWith("builds"));
    h.clock.advance(30 * 60_000);
    const after = (await expectAgreement(3)).find((r) => r.link.startsWith("builds"));
    expect(after?.snapshot).not.toBe(before?.snapshot);
  });

  test("paused, the link sends nothing more: its lag grows from the same snapshot", async () => {
    h.sims
      .get("fb-lab-01")
      ?.control.stateControl("set-link-status", { fileSystem: "builds", status: "paused" });
    const paused = (await rows()).rows.find((r) => r.link.startsWith("builds"));
    h.clock.advance(2 * 3_600_000);
    const later = (await expectAgreement(3)).find((r) => r.link.startsWith("builds"));
    expect(later?.snapshot).toBe(paused?.snapshot);
  });
});
