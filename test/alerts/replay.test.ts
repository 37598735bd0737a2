import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { labEvents, parseLabAlerts } from "../../src/alerts/replay/lab-data.js";
import { REPLAY_CHANNELS, runReplay } from "../../src/alerts/replay/replay.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const DATA = resolve(repo, "../shared/data/lab-array-alerts.json");
const alerts = parseLabAlerts(JSON.parse(readFileSync(DATA, "utf8")));

describe("lab fixture mapping", () => {
  it("maps the 2.x-shaped fixture to 1.x alerts and their events", () => {
    expect(alerts).toHaveLength(676);
    const first = alerts.find((a) => a.index === 1);
    expect(first).toMatchObject({
      code: 1004,
      severity: "warning",
      component: "CH1.FM2.ETH1",
      finalState: "closed",
    });
    expect(first?.subject).toBe("Ethernet connector CH1.FM2.ETH1 is unhealthy");
    expect(alerts.filter((a) => a.finalState !== "closed")).toHaveLength(11);
    const events = labEvents(alerts);
    expect(events).toHaveLength(676 + 666);
    expect(events.every((e, i) => i === 0 || (events[i - 1]?.at ?? 0) <= e.at)).toBe(true);
  });
});

describe("replay of 676 real lab alerts", () => {
  it("collapses reopening blades, keeps every open alert visible, and reports what it did", async () => {
    const r = await runReplay({ alerts });

    // The figures the README quotes (537 posts, 269 reopenings collapsed, worst blade 11 messages for 23
    // alerts), pinned within a small band: a change that moves them moves the README too.
    const within = (value: number, quoted: number, band = 0.02) => {
      expect(value).toBeGreaterThanOrEqual(Math.floor(quoted * (1 - band)));
      expect(value).toBeLessThanOrEqual(Math.ceil(quoted * (1 + band)));
    };
    within(r.posts, 537);
    within(r.collapsedReopenings, 269);
    // Blade families reopened 20–27 times; the worst ends in 11 messages for 23 alerts.
    const blades = r.families.filter((f) => f.family.startsWith("1000/"));
    expect(blades.filter((f) => f.alerts >= 20).length).toBeGreaterThanOrEqual(5);
    const worst = Math.max(...blades.map((f) => f.messages));
    expect(worst).toBeGreaterThanOrEqual(10);
    expect(worst).toBeLessThanOrEqual(12);
    expect(blades.some((f) => f.messages === worst && f.alerts === 23)).toBe(true);

    // Everything still open at the end is on a live (not resolved) message in its channels.
    expect(r.openAtEnd).toBe(11);
    expect(r.openNotVisible).toEqual([]);

    within(r.updates, 1062);
    within(r.threadLines, 1062);
    expect(r.engine.failed).toBe(0);
    expect(r.families.some((f) => f.channel === REPLAY_CHANNELS.oncall)).toBe(true);
  }, 120_000);
});
