/**
 * App Home's buttons and its refresh after a change, through Bolt's real HTTP receiver, the fake Slack Web API
 * (which validates every view) and the real pipeline over the demo simulator: the home carries per-array
 * buttons into the matching reads, a click runs that read as the person and shows it in a modal, a forged
 * value runs nothing; a Confirm click publishes the person's home again, at most once per window (a change
 * inside the window is published when it ends), with the clock and the timer injected.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessSchema } from "../../src/config/schema.js";
import { createAccessResolver } from "../../src/core/access/authz.js";
import { ACTIONS } from "../../src/core/context/pipeline-deps.js";
import type { Simulator } from "../../src/simulator/index.js";
import { homeMessage } from "../../src/slack/home.js";
import { createHomePort } from "../../src/slack/home-data.js";
import { createHomeRefresher } from "../../src/slack/home-refresh.js";
import { blockAction, eventCallback, slashCommand } from "../fakes/payloads.js";
import type { Harness } from "./helpers/harness.js";
import { type PipelineWorld, startPipelineWorld } from "./helpers/pipeline-world.js";

type Obj = Record<string, unknown>;

/** Lets the publishes that have resolved finish (their `finally`), as the event loop would between clicks. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("App Home: a refresh after a change, within the window", () => {
  it("two changes in a row publish once in the window, the second at its end; a later one publishes at once", async () => {
    let now = 1_000_000;
    const published: number[] = [];
    const timers: { fn: () => void; ms: number }[] = [];
    const r = createHomeRefresher({
      windowMs: 10_000,
      now: () => now,
      schedule: (fn, ms) => timers.push({ fn, ms }),
      publish: async () => {
        published.push(now);
      },
    });
    r.changed("U1");
    now += 1_000;
    r.changed("U1");
    r.changed("U1");
    expect(published).toEqual([1_000_000]);
    expect(timers.map((t) => t.ms)).toEqual([9_000]);
    // Someone else has their own window.
    r.changed("U2");
    expect(published).toHaveLength(2);
    await settled();
    now += 9_000;
    timers[0]?.fn();
    expect(published).toEqual([1_000_000, 1_001_000, 1_010_000]);
    await settled();
    now += 10_000;
    r.changed("U1");
    expect(published).toHaveLength(4);
    expect(timers).toHaveLength(1);
  });

  it("keeps at most one publish per person waiting for Slack; changes meanwhile make one more, after it", async () => {
    let now = 1_000_000;
    const timers: { fn: () => void; ms: number }[] = [];
    // Slack's pace holds each publish until the test lets it go.
    const held: { userId: string; done: () => void }[] = [];
    const r = createHomeRefresher({
      windowMs: 10_000,
      now: () => now,
      schedule: (fn, ms) => timers.push({ fn, ms }),
      publish: (userId) =>
        new Promise<void>((resolve) => {
          held.push({ userId, done: resolve });
        }),
    });
    r.changed("U1");
    // Windows pass while the first publish still waits: each would have queued one more.
    for (let i = 0; i < 5; i++) {
      now += 10_000;
      r.changed("U1");
      timers.shift()?.fn();
    }
    expect(held.map((h) => h.userId)).toEqual(["U1"]);
    held.shift()?.done();
    await settled();
    // The changes made meanwhile are shown by one publish, at once: the window has long passed.
    expect(held.map((h) => h.userId)).toEqual(["U1"]);
    held.shift()?.done();
    await settled();
    expect(held).toEqual([]);
    expect(timers).toEqual([]);
  });
});

describe("App Home through Slack", () => {
  let world: PipelineWorld;
  let sim: Simulator;
  let h: Harness;
  let now = Date.now();
  const timers: { fn: () => void; ms: number }[] = [];
  let onSchedule: (() => void) | undefined;

  beforeAll(async () => {
    world = await startPipelineWorld(["UBOB"], ({ config, pool }) => ({
      now: () => now,
      homeRefresh: {
        windowMs: 10_000,
        schedule: (fn, ms) => {
          timers.push({ fn, ms });
          onSchedule?.();
        },
      },
      home: ({ identity }) =>
        createHomePort({
          access: createAccessResolver(accessSchema.parse(config.access), identity),
          arrays: () => pool.health(),
          fleet: { clientFor: (n) => pool.get(n), options: { now: Date.now, deadlineMs: 3_000 } },
        }),
    }));
    ({ h, sim } = world);
  });

  afterAll(async () => world?.close());

  const publishesFor = (user: string) =>
    h.fake.callsOf("views.publish").filter((c) => c.args["user_id"] === user).length;

  async function openHome(user: string) {
    const before = publishesFor(user);
    await h.driver.event(
      eventCallback({ type: "app_home_opened", user, channel: `D${user}`, tab: "home", event_ts: "1.0" }),
    );
    const call = await h.fake.waitForCall("views.publish", (c) => c.args["user_id"] === user, before + 1);
    return (call.args["view"] as { blocks: Obj[] }).blocks;
  }

  const homeButtons = (blocks: Obj[]) =>
    blocks
      .filter((b) => b["type"] === "actions")
      .flatMap((b) => b["elements"] as Obj[])
      .filter((e) => String(e["action_id"]).startsWith("home.run"));

  async function clickButton(user: string, actionId: string, value: string) {
    await h.driver.interactive(
      blockAction({
        userId: user,
        actionId,
        value,
        messageTs: "1700000000.000200",
        responseUrl: h.fake.responseUrl(`c-${Math.random()}`),
      }),
    );
  }

  it("per array, buttons into the matching reads; a click runs it as the person and shows it in a modal", async () => {
    const blocks = await openHome("UCAROL");
    const buttons = homeButtons(blocks);
    expect(buttons.map((b) => (b["text"] as Obj)["text"])).toEqual([
      "Alerts",
      "Space forecast",
      "Links behind RPO",
    ]);
    const alerts = buttons[0] ?? {};
    const opens = h.fake.callsOf("views.open").length;
    await clickButton("UCAROL", String(alerts["action_id"]), String(alerts["value"]));
    await h.fake.waitForCall("views.open", () => true, opens + 1);
    const update = await h.fake.waitForCall("views.update", () => true);
    const shown = JSON.stringify(update.args["view"]);
    const open = [...sim.state.alerts.values()].find((a) => a.state === "open");
    expect(open).toBeDefined();
    expect(shown).toContain(String(open?.index));
    const openCount = [...sim.state.alerts.values()].filter((a) => a.state === "open").length;
    expect(shown).toContain(`${openCount} open alerts on array lab-1`);

    // A forged value names no read of ours: nothing is opened or run.
    const before = h.fake.callsOf("views.open").length;
    await clickButton("UCAROL", "home.run", JSON.stringify({ command: "fs destroy", array: "lab-1" }));
    await clickButton("UCAROL", "home.run", "fs destroy scratch");
    expect(h.fake.callsOf("views.open")).toHaveLength(before);
  });

  it("pending approvals get an Open button that goes to the request's channel", () => {
    const msg = homeMessage({
      role: "admin",
      arrays: [],
      pending: [{ id: "P1", summary: "Destroy fs1", requester: "bob", channelId: "C0OPS" }],
      help: [],
    });
    const open = msg.blocks.flatMap((b) => (b.type === "actions" ? b.buttons : []));
    expect(open).toEqual([
      expect.objectContaining({
        actionId: "home.open",
        label: "Open: Destroy fs1",
        url: "https://slack.com/app_redirect?channel=C0OPS",
      }),
    ]);
  });

  /** `/array fs destroy <name>` as UBOB, then Confirm on its card. */
  async function destroyAndConfirm(name: string) {
    const id = `d-${name}`;
    await h.driver.command(
      slashCommand({ text: `fs destroy ${name}`, userId: "UBOB", responseUrl: h.fake.responseUrl(id) }),
    );
    const card = await h.fake.waitForResponse((r) => r.id === id);
    const confirm = JSON.stringify(card.body).match(
      new RegExp(`"action_id":"${ACTIONS.confirm.replace(/\./g, "\\.")}","value":"([^"]+)"`),
    );
    expect(confirm?.[1]).toBeDefined();
    await clickButton("UBOB", ACTIONS.confirm, confirm?.[1] ?? "");
  }

  it("a Confirm publishes the person's home again, once per window; a later change publishes again", async () => {
    const names = [...sim.state.fileSystems.values()].filter((f) => !f.destroyed).map((f) => f.name);
    const [a, b, c] = names;
    if (!a || !b || !c) throw new Error("the demo has fewer than three file systems");
    const start = publishesFor("UBOB");

    await destroyAndConfirm(a);
    await h.fake.waitForCall("views.publish", (x) => x.args["user_id"] === "UBOB", start + 1);
    expect(sim.state.fileSystems.get(a)?.destroyed).toBe(true);

    // A second change inside the window: no publish now, one scheduled for the window's end.
    const scheduled = new Promise<void>((resolve) => {
      onSchedule = resolve;
    });
    now += 1_000;
    await destroyAndConfirm(b);
    await scheduled;
    expect(publishesFor("UBOB")).toBe(start + 1);
    expect(timers.at(-1)?.ms).toBe(9_000);
    now += 9_000;
    timers.at(-1)?.fn();
    await h.fake.waitForCall("views.publish", (x) => x.args["user_id"] === "UBOB", start + 2);

    // Past the window, the next change publishes at once.
    now += 10_000;
    const timersBefore = timers.length;
    await destroyAndConfirm(c);
    await h.fake.waitForCall("views.publish", (x) => x.args["user_id"] === "UBOB", start + 3);
    expect(timers).toHaveLength(timersBefore);
  });
});
