import { afterEach, describe, expect, it } from "vitest";
import { closeAlert, raiseAlert } from "../../src/simulator/state-control.js";
import { type AlertHarness, OPERATOR, STORAGE, startAlertHarness } from "./helpers/harness.js";

let h: AlertHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const MIN = 60_000;
const fan = {
  code: 1013,
  severity: "warning" as const,
  component: "CH1.FM1.FAN1",
  subject: "Fan CH1.FM1.FAN1 requires attention",
};

function buttonValue(blocks: unknown[], actionId: string, label?: string): string {
  for (const b of blocks as {
    elements?: { action_id?: string; value?: string; text?: { text?: string } }[];
  }[]) {
    for (const e of b.elements ?? []) {
      if (e.action_id?.replace(/~\d+$/, "") !== actionId) continue;
      if (label === undefined || e.text?.text === label) return e.value ?? "";
    }
  }
  throw new Error(`no ${actionId} button`);
}

/** Opens and closes the fan alert `times` times, `gap` apart, polling in between. */
async function flap(hh: AlertHarness, times: number, gap: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const a = raiseAlert(hh.sim.state, fan);
    await hh.advance(MIN);
    closeAlert(hh.sim.state, a.index);
    await hh.advance(gap);
  }
}

describe("noise control", () => {
  it("without a snooze, a family reopening after the flap window gets a new message", async () => {
    h = await startAlertHarness({ config: { flap: { window: "5m", reopenings: 3 } } });
    h.engine.start();
    await h.advance(MIN);
    await flap(h, 2, 20 * MIN);
    expect(h.posts(STORAGE)).toHaveLength(2);
  });

  it("a snooze keeps reopenings from posting or adding thread lines until it ends", async () => {
    h = await startAlertHarness({ config: { flap: { window: "5m", reopenings: 3 } } });
    h.engine.start();
    await h.advance(MIN);
    const first = raiseAlert(h.sim.state, fan);
    await h.advance(MIN);
    const card = h.posts(STORAGE)[0];
    const ts = card?.ts ?? "";
    const value = buttonValue(card?.blocks ?? [], "alert.snooze", "Snooze 1 hour");
    const r = await h.engine.handleClick({
      actionId: "alert.snooze",
      value,
      actor: { kind: "person" as const, userId: OPERATOR, channelId: STORAGE },
    });
    expect(JSON.stringify(r)).toContain("Snoozed for 1 hour");
    await h.engine.idle();
    closeAlert(h.sim.state, first.index);
    await h.advance(MIN);
    const afterSnooze = h.thread(ts);
    expect(afterSnooze).toHaveLength(1);
    expect(afterSnooze[0]).toMatch(/^Snoozed by UOPERATOR until /);

    // Reopenings 20 minutes apart (outside the 5 minute flap window) during the hour: no message, no line.
    await flap(h, 2, 20 * MIN);
    expect(h.posts(STORAGE)).toHaveLength(1);
    expect(h.thread(ts)).toEqual(afterSnooze);
    const shown = h.slack.messages.get(`${STORAGE}/${ts}`);
    expect(shown?.text).toContain("Resolved");
    expect(JSON.stringify(shown?.blocks)).toContain("(3 alerts on this message)");

    // After the hour, the next reopening outside the window is posted again.
    await h.advance(30 * MIN);
    await flap(h, 1, MIN);
    expect(h.posts(STORAGE)).toHaveLength(2);
  });

  it("a flapping family reuses its message and says how often it reopened", async () => {
    h = await startAlertHarness({ config: { flap: { window: "1h", reopenings: 3 } } });
    h.engine.start();
    await h.advance(MIN);
    await flap(h, 6, 5 * MIN);
    const posts = h.posts(STORAGE);
    expect(posts).toHaveLength(1);
    const lines = h.thread(posts[0]?.ts ?? "");
    expect(lines.filter((l) => l.startsWith("Reopened as alert"))).toHaveLength(5);
    expect(lines.at(-2)).toContain("Flapping: later reopenings only update this message.");
    expect(JSON.stringify(h.slack.messages.get(`${STORAGE}/${posts[0]?.ts}`)?.blocks)).toContain(
      "Flapping: reopened 5× in the last hour",
    );
    expect(h.engine.stats()).toMatchObject({ opened: 6, collapsed: 5, cards: 1 });
  });
});
