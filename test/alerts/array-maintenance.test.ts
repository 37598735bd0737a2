/**
 * The array's own maintenance windows (REST 2.16+) in the real alert engine: a window in force holds the cards
 * of the alerts it covers (recorded, not posted); when it ends, what is still open is posted with one thread note
 * saying how many alerts it held, and what resolved meanwhile never is. A window named after a component covers
 * only that component. The window is created through the simulator's 2.x wire (POST ?names=, with its timeout);
 * its created/expires are filled as the array sets them from the timeout, which the generic collection does not.
 * On an array that speaks 1.x nothing is held.
 */
import { afterEach, describe, expect, it } from "vitest";
import { collection } from "../../src/simulator/resources/generic.js";
import { closeAlert, raiseAlert } from "../../src/simulator/state-control.js";
import { type AlertHarness, STORAGE, startAlertHarness } from "./helpers/harness.js";

let h: AlertHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const MIN = 60_000;
const port = (n: number) => ({
  code: 1004,
  severity: "warning" as const,
  component: `CH1.FM1.ETH${n}`,
  subject: `Ethernet connector CH1.FM1.ETH${n} is unhealthy`,
});

/** Opens window `name` on fb1 for `ms` from now, through the 2.x wire. */
async function openWindow(harness: AlertHarness, name: string, ms: number): Promise<void> {
  await harness.pool
    .get("fb1")
    .post("/maintenance-windows", { query: { names: name }, body: { timeout: ms } });
  // Where the generic collection keeps it (until the simulator models windows), set what the array would set.
  const item = collection(harness.sim.state, "/maintenance-windows").items.get(name);
  const now = harness.clock.now();
  if (item) Object.assign(item, { created: now, expires: now + ms });
}

describe("the array's maintenance windows", () => {
  it("hold covered alerts until the window ends, then post what is open with one note", async () => {
    h = await startAlertHarness({ versions: "2.0-2.28" });
    h.engine.start();
    await h.advance(MIN);
    await openWindow(h, "fw-upgrade", 60 * MIN);
    const kept = raiseAlert(h.sim.state, port(1));
    const brief = raiseAlert(h.sim.state, port(2));
    await h.advance(2 * MIN);
    expect(h.posts(STORAGE)).toHaveLength(0);
    expect(await h.engine.alerts("fb1")).toHaveLength(2);
    closeAlert(h.sim.state, brief.index);
    await h.advance(50 * MIN);
    expect(h.posts(STORAGE)).toHaveLength(0);
    await h.advance(10 * MIN);
    const posts = h.posts(STORAGE);
    expect(posts.map((p) => p.text)).toEqual([expect.stringContaining(`(alert ${kept.index})`)]);
    await h.advance(MIN);
    expect(h.thread(posts[0]?.ts ?? "")).toEqual([
      expect.stringContaining("maintenance window fw-upgrade on fb1 held 2 alerts here"),
    ]);
    // Alerts after the window are posted at once again.
    raiseAlert(h.sim.state, port(3));
    await h.advance(MIN);
    expect(h.posts(STORAGE)).toHaveLength(2);
  });

  it("a window named after a component holds only that component's alerts", async () => {
    h = await startAlertHarness({ versions: "2.0-2.28" });
    h.engine.start();
    await h.advance(MIN);
    await openWindow(h, "CH1.FM1.ETH5", 60 * MIN);
    raiseAlert(h.sim.state, port(5));
    const other = raiseAlert(h.sim.state, port(6));
    await h.advance(2 * MIN);
    expect(h.posts(STORAGE).map((p) => p.text)).toEqual([expect.stringContaining(`(alert ${other.index})`)]);
  });

  it("a quiet poll does not ask for the windows; a poll that brings a change does, so a new window still holds it", async () => {
    h = await startAlertHarness({ versions: "2.0-2.28" });
    const harness = h;
    const windowReads = () =>
      Object.entries(harness.sim.control.stats().requests)
        .filter(([k]) => k.startsWith("GET ") && k.endsWith("/maintenance-windows"))
        .reduce((n, [, v]) => n + v, 0);
    const alertReads = () =>
      Object.entries(harness.sim.control.stats().requests)
        .filter(([k]) => k.startsWith("GET ") && k.endsWith("/alerts"))
        .reduce((n, [, v]) => n + v, 0);
    h.engine.start();
    await h.advance(MIN);
    // The first look since start reads them (a window may have been held before a restart).
    expect(windowReads()).toBe(1);
    const [w0, a0] = [windowReads(), alertReads()];
    await h.advance(10 * MIN);
    expect(alertReads() - a0).toBeGreaterThanOrEqual(10);
    expect(windowReads()).toBe(w0);
    // A window opened between two quiet polls, then an alert: the poll that sees the alert reads the window.
    await openWindow(h, "fw-upgrade", 60 * MIN);
    raiseAlert(h.sim.state, port(1));
    await h.advance(MIN);
    expect(windowReads()).toBeGreaterThan(w0);
    expect(h.posts(STORAGE)).toHaveLength(0);
    expect(await h.engine.alerts("fb1")).toHaveLength(1);
  });

  it("on an array that speaks 1.x alerts are posted at once, as before", async () => {
    h = await startAlertHarness({ versions: "1.0-1.12" });
    h.engine.start();
    await h.advance(MIN);
    raiseAlert(h.sim.state, port(1));
    await h.advance(2 * MIN);
    expect(h.posts(STORAGE)).toHaveLength(1);
  });
});
