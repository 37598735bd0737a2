/**
 * The same alert on many arrays at once collapses as a storm on one array does: past fleet_storm_arrays arrays
 * within one poll interval, one fleet summary per channel (arrays worst first), updated as more arrive, instead
 * of a card per array. Real simulated arrays, the real engine, a manual clock.
 */
import { afterEach, describe, expect, it } from "vitest";
import { FLEET_CARD_PACE_MS } from "../../src/alerts/repo.js";
import { closeAlert, raiseAlert } from "../../src/simulator/state-control.js";
import { type AlertHarness, STORAGE, startAlertHarness } from "./helpers/harness.js";

let h: AlertHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ARRAYS = Array.from({ length: 12 }, (_, i) => `fb${String(i + 1).padStart(2, "0")}`);
/** The same alert (code, kind of component) on each array, each on its own blade. */
const bladeDown = (i: number) => ({
  code: 1000,
  severity: "warning" as const,
  component: `CH1.FB${i + 1}`,
  subject: "Blade is unhealthy",
});

describe("an alert storm across many arrays", () => {
  it("becomes one fleet summary after the first arrays, listing every array and carrying later changes", async () => {
    h = await startAlertHarness({ arrays: ARRAYS });
    h.engine.start();
    await h.advance(30_000);
    const raised = ARRAYS.map((name, i) => {
      const sim = h?.sims.get(name);
      if (!sim) throw new Error(`no simulator for ${name}`);
      return raiseAlert(sim.state, bladeDown(i));
    });
    await h.advance(30_000);

    const posts = h.posts(STORAGE);
    // Three arrays (fleet_storm_arrays) keep their own cards; the fourth opens the fleet card, the rest join it.
    expect(posts).toHaveLength(4);
    const fleet = posts.find((p) => p.text.includes("on 12 arrays"));
    expect(fleet?.text).toContain("Blade is unhealthy on 12 arrays (12 open)");
    const shown = JSON.stringify(h.slack.messages.get(`${STORAGE}/${fleet?.ts}`)?.blocks);
    for (const name of ARRAYS) expect(shown).toContain(name);
    expect(h.engine.stats()).toMatchObject({ cards: 3, opened: 12, collapsed: 9 });

    // A change on an array the fleet card holds goes into its thread, not a new message.
    const last = ARRAYS.length - 1;
    const sim = h.sims.get(ARRAYS[last] ?? "");
    const alert = raised[last];
    if (!sim || !alert) throw new Error("no alert");
    closeAlert(sim.state, alert.index);
    await h.advance(30_000);
    expect(h.posts(STORAGE)).toHaveLength(4);
    expect(
      h.thread(fleet?.ts ?? "").some((l) => l.startsWith(`${ARRAYS[last]}: alert ${alert.index}: Closed`)),
    ).toBe(true);
    expect(h.posts(STORAGE).find((p) => p.ts === fleet?.ts)?.text).toContain("(11 open)");
  });

  it("updates the fleet card's message at most once per pace, every arrival still in its thread", async () => {
    h = await startAlertHarness({ arrays: ARRAYS });
    h.engine.start();
    await h.advance(30_000);
    for (const [i, name] of ARRAYS.entries()) {
      const sim = h.sims.get(name);
      if (sim) raiseAlert(sim.state, bladeDown(i));
    }
    await h.advance(30_000);
    const fleet = h.posts(STORAGE).find((p) => p.text.includes("on 12 arrays"));
    const before = h.engine.stats();
    const linesOf = () => h?.thread(fleet?.ts ?? "").flatMap((m) => m.split("\n")) ?? [];
    const lines = linesOf().length;
    const messages = h.thread(fleet?.ts ?? "").length;
    // A second blade down on every array: twelve arrivals on the fleet card, one per poll, across one interval.
    for (const [i, name] of ARRAYS.entries()) {
      const sim = h.sims.get(name);
      if (sim) raiseAlert(sim.state, bladeDown(i + ARRAYS.length));
    }
    await h.advance(30_000);
    await h.advance(FLEET_CARD_PACE_MS);
    const after = h.engine.stats();
    expect(after.posts).toBe(before.posts);
    expect(after.updates - before.updates).toBeLessThanOrEqual(30_000 / FLEET_CARD_PACE_MS + 1);
    expect(after.threadLines - before.threadLines).toBe(ARRAYS.length);
    expect(linesOf()).toHaveLength(lines + ARRAYS.length);
    // Arrivals waiting for the same paced update share a thread message: fewer messages than arrivals.
    const sent = h.thread(fleet?.ts ?? "").length - messages;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(ARRAYS.length);
    expect(after.threadPosts - before.threadPosts).toBe(sent);
    // The last update shows every arrival: two open alerts on each array.
    const shown = JSON.stringify(h.slack.messages.get(`${STORAGE}/${fleet?.ts}`)?.blocks);
    expect(shown.match(/"value":2,/g)).toHaveLength(ARRAYS.length);
  });
});
