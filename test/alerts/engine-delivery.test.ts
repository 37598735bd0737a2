import { afterEach, describe, expect, it } from "vitest";
import { closeAlert, raiseAlert } from "../../src/simulator/state-control.js";
import { type AlertHarness, ONCALL, STORAGE, startAlertHarness } from "./helpers/harness.js";

let h: AlertHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const MIN = 60_000;
const port = (n: number, severity: "warning" | "critical" = "warning") => ({
  code: 1004,
  severity,
  component: `CH1.FM1.ETH${n}`,
  subject: `Ethernet connector CH1.FM1.ETH${n} is unhealthy`,
});

describe("quiet hours in the engine", () => {
  it("holds warnings until quiet hours end, posts criticals at once, and drops what resolved meanwhile", async () => {
    // The harness starts at 10:00 UTC; quiet from 10:05 to 11:00.
    h = await startAlertHarness({ config: { quiet_hours: { start: "10:05", end: "11:00" } } });
    h.engine.start();
    await h.advance(6 * MIN);
    const held = raiseAlert(h.sim.state, port(1));
    const brief = raiseAlert(h.sim.state, port(2));
    raiseAlert(h.sim.state, port(3, "critical"));
    await h.advance(MIN);
    expect(h.posts(ONCALL).map((p) => p.text)).toEqual([expect.stringContaining("CH1.FM1.ETH3")]);
    expect(h.posts(STORAGE).map((p) => p.text)).toEqual([expect.stringContaining("CH1.FM1.ETH3")]);

    closeAlert(h.sim.state, brief.index);
    await h.advance(50 * MIN);
    expect(h.posts(STORAGE)).toHaveLength(1);
    await h.advance(5 * MIN);
    const storage = h.posts(STORAGE).map((p) => p.text);
    expect(storage).toHaveLength(2);
    expect(storage[1]).toContain(`(alert ${held.index})`);
    expect(h.engine.stats().dropped).toBe(1);
  });
});

describe("reconcile", () => {
  it("an alert that vanishes from the array is closed on its card by the next full read", async () => {
    h = await startAlertHarness();
    h.engine.start();
    await h.advance(MIN);
    const a = raiseAlert(h.sim.state, port(4));
    await h.advance(MIN);
    expect(h.posts(STORAGE)).toHaveLength(1);
    h.sim.state.alerts.delete(a.index);
    await h.advance(5 * MIN);
    expect(h.posts(STORAGE)[0]?.text).not.toContain("Resolved");
    await h.advance(10 * MIN);
    expect(h.posts(STORAGE)[0]?.text).toContain("Resolved");
  });

  it("forgets closed alerts and their cards after the retention period", async () => {
    h = await startAlertHarness({ config: { flap: { window: "1h" }, retention: "2h" } });
    h.engine.start();
    await h.advance(MIN);
    const a = raiseAlert(h.sim.state, port(5));
    await h.advance(MIN);
    closeAlert(h.sim.state, a.index);
    await h.advance(MIN);
    expect(await h.engine.alerts("fb1")).toHaveLength(1);
    // Something must move the array's clock on (its `updated` times are what retention counts in).
    raiseAlert(h.sim.state, port(6));
    await h.advance(3 * 60 * MIN);
    const b = raiseAlert(h.sim.state, port(7));
    await h.advance(15 * MIN);
    const left = await h.engine.alerts("fb1");
    expect(left.map((r) => r.index).sort()).toEqual([a.index + 1, b.index]);
  });
});

describe("arrays older than REST 1.2 (no /alerts)", () => {
  it("are only probed, and still get a reachability alert when they go away", async () => {
    h = await startAlertHarness({ versions: "1.0-1.1" });
    h.engine.start();
    await h.advance(MIN);
    expect(h.engine.stats()).toMatchObject({ failedPolls: 0 });
    await h.sim.control.down();
    await h.advance(4 * MIN);
    expect(h.posts(ONCALL).map((p) => p.text)).toEqual([expect.stringContaining("fb1 is unreachable")]);
  });
});
