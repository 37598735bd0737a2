import { afterEach, describe, expect, it } from "vitest";
import { closeAlert, raiseAlert, updateAlert } from "../../src/simulator/state-control.js";
import {
  type AlertHarness,
  ONCALL,
  OPERATOR,
  STORAGE,
  startAlertHarness,
  VIEWER,
} from "./helpers/harness.js";

let h: AlertHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const blade = (component = "CH1.FB5") => ({
  code: 1000,
  severity: "warning" as const,
  component,
  subject: `Blade ${component} is unhealthy`,
  description: "A blade is unhealthy. No data has been lost, but performance may be impacted.",
});

/** The value of the first button with `actionId` on a posted message. */
function buttonValue(blocks: unknown[], actionId: string): string {
  for (const b of blocks as { type: string; elements?: { action_id?: string; value?: string }[] }[]) {
    for (const e of b.elements ?? [])
      if (e.action_id?.replace(/~\d+$/, "") === actionId) return e.value ?? "";
  }
  throw new Error(`no ${actionId} button`);
}

describe("alert lifecycle on a simulated array", () => {
  it("posts a new alert once in its channel, then updates that message and its thread", async () => {
    h = await startAlertHarness();
    h.engine.start();
    await h.advance(30_000);
    const a = raiseAlert(h.sim.state, blade());
    await h.advance(30_000);
    await h.advance(90_000);

    const storage = h.posts(STORAGE);
    expect(storage).toHaveLength(1);
    expect(storage[0]?.text).toContain("Warning alert on fb1: Blade CH1.FB5 is unhealthy");
    expect(h.posts(ONCALL)).toHaveLength(0);

    updateAlert(h.sim.state, a.index, { severity: "critical" });
    await h.advance(30_000);
    const ts = storage[0]?.ts ?? "";
    const msg = h.slack.messages.get(`${STORAGE}/${ts}`);
    expect(msg?.text).toContain("Critical alert on fb1");
    expect(h.thread(ts)).toEqual(["Severity changed from warning to critical."]);
    // The escalation reaches the on-call route, once.
    expect(h.posts(ONCALL)).toHaveLength(1);

    closeAlert(h.sim.state, a.index);
    await h.advance(30_000);
    expect(h.posts(STORAGE)).toHaveLength(1);
    expect(h.slack.messages.get(`${STORAGE}/${ts}`)?.text).toContain("Resolved on fb1");
    const closing = h.thread(ts).at(-1) ?? "";
    expect(closing).toMatch(/^Closed after \d/);
    expect(h.posts(ONCALL)[0]?.text).toContain("Resolved");
    // Thread lines never mention anyone.
    const replies = [...h.slack.messages.values()].filter((m) => m.threadTs !== undefined);
    expect(replies.every((m) => !/<[@!#]/.test(m.text))).toBe(true);
    expect(h.engine.stats()).toMatchObject({ opened: 1, cards: 2 });
  });

  it("flags the alert on the array from the message's button, for operators only", async () => {
    h = await startAlertHarness();
    h.engine.start();
    await h.advance(30_000);
    const a = raiseAlert(h.sim.state, blade());
    await h.advance(30_000);
    const post = h.posts(STORAGE)[0];
    const value = buttonValue(post?.blocks ?? [], "alert.flag");

    const denied = await h.engine.handleClick({
      actionId: "alert.flag",
      value,
      actor: { kind: "person" as const, userId: VIEWER, channelId: STORAGE },
    });
    expect(JSON.stringify(denied)).toContain("needs the operator role");
    expect(h.sim.state.alerts.get(a.index)?.flagged).toBe(false);

    const ok = await h.engine.handleClick({
      actionId: "alert.flag",
      value,
      actor: { kind: "person" as const, userId: OPERATOR, channelId: STORAGE, displayName: "ana" },
    });
    expect(JSON.stringify(ok)).toContain(`Flagged alert ${a.index} on fb1`);
    expect(h.sim.state.alerts.get(a.index)?.flagged).toBe(true);
    await h.engine.idle();
    const ts = post?.ts ?? "";
    expect(h.thread(ts)).toEqual(["Flagged by ana."]);
    const shown = h.slack.messages.get(`${STORAGE}/${ts}`);
    expect(buttonValue(shown?.blocks ?? [], "alert.unflag")).toBe(value);
    // The next poll sees the flag the bot set and adds no second line.
    await h.advance(60_000);
    expect(h.thread(ts)).toEqual(["Flagged by ana."]);
  });

  it("a storm of 50 new alerts becomes one summary message, whose thread carries later changes", async () => {
    h = await startAlertHarness();
    h.engine.start();
    await h.advance(30_000);
    const raised = Array.from({ length: 50 }, (_, i) => raiseAlert(h!.sim.state, blade(`CH1.FB${i + 1}`)));
    await h.advance(30_000);
    const posts = h.posts(STORAGE);
    expect(posts).toHaveLength(1);
    expect(posts[0]?.text).toContain("50 new alerts on fb1");
    expect(h.engine.stats()).toMatchObject({ summaries: 1, summarised: 50, cards: 0 });

    const first = raised[0];
    if (!first) throw new Error("no alert");
    closeAlert(h.sim.state, first.index);
    await h.advance(30_000);
    expect(h.posts(STORAGE)).toHaveLength(1);
    expect(h.thread(posts[0]?.ts ?? "")).toEqual([
      expect.stringMatching(
        new RegExp(`^Alert ${first.index} \\(Blade CH1.FB1 is unhealthy\\): Closed after`),
      ),
    ]);
  });
});
