import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeAlert, raiseAlert } from "../../src/simulator/state-control.js";
import { openSqliteStore } from "../../src/store/sqlite.js";
import type { Store } from "../../src/store/types.js";
import { type AlertHarness, ONCALL, STORAGE, startAlertHarness } from "./helpers/harness.js";

let h: AlertHarness | undefined;
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const f of cleanup.splice(0).reverse()) await f();
});

const SEC = 1000;
const MIN = 60 * SEC;
const alert = (component: string, severity: "warning" | "critical" = "warning") => ({
  code: 1004,
  severity,
  component,
  subject: `Ethernet connector ${component} is unhealthy`,
});

function sqliteDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "alerts-restart-"));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("restarts", () => {
  it("a restart between polls neither duplicates nor loses a post", async () => {
    const dir = sqliteDir();
    let t = 0;
    const first: Store = openSqliteStore({ dataDir: dir, now: () => t });
    h = await startAlertHarness({ store: first });
    const now = h.clock.now;
    t = now();
    h.engine.start();
    await h.advance(30 * SEC);
    const a = raiseAlert(h.sim.state, alert("CH1.FM1.ETH1"));
    await h.advance(30 * SEC);
    expect(h.posts(STORAGE)).toHaveLength(1);

    // The bot stops; while it is away one alert closes and another opens.
    await h.engine.stop();
    await first.close();
    await h.clock.advance(5 * MIN);
    closeAlert(h.sim.state, a.index);
    raiseAlert(h.sim.state, alert("CH1.FM2.ETH1"));

    const second = openSqliteStore({ dataDir: dir, now });
    cleanup.push(() => second.close());
    const engine = h.restart(second);
    engine.start();
    await h.advance(30 * SEC);

    const posts = h.posts(STORAGE);
    expect(posts.map((p) => p.text)).toEqual([
      expect.stringContaining("Resolved on fb1: Ethernet connector CH1.FM1.ETH1"),
      expect.stringContaining("Warning alert on fb1: Ethernet connector CH1.FM2.ETH1"),
    ]);
    expect(h.thread(posts[0]?.ts ?? "")).toEqual([expect.stringMatching(/^Closed after 5m/)]);
  });

  it("a post that Slack did not take before the stop is delivered once after the restart", async () => {
    const dir = sqliteDir();
    h = await startAlertHarness({ slackRetries: 0 });
    const first = openSqliteStore({ dataDir: dir, now: h.clock.now });
    h.restart(first);
    await h.engine.pollNow("fb1");
    raiseAlert(h.sim.state, alert("CH1.FM1.ETH3"));
    h.slack.script("chat.postMessage", { status: 503 }, { status: 503 });
    await h.engine.pollNow("fb1");
    await h.engine.idle();
    expect(h.posts(STORAGE)).toHaveLength(0);
    await h.engine.stop();
    await first.close();

    const second = openSqliteStore({ dataDir: dir, now: h.clock.now });
    cleanup.push(() => second.close());
    h.restart(second);
    await h.engine.flush();
    // Not due yet: the first failure scheduled a retry 5 s later, and that schedule survived the restart.
    expect(h.slack.callsOf("chat.postMessage")).toHaveLength(1);
    await h.advance(5 * SEC);
    expect(h.slack.callsOf("chat.postMessage")).toHaveLength(2);
    expect(h.posts(STORAGE)).toHaveLength(0);
    await h.advance(10 * SEC);
    expect(h.posts(STORAGE)).toHaveLength(1);
    await h.engine.pollNow("fb1");
    await h.advance(MIN);
    expect(h.slack.callsOf("chat.postMessage")).toHaveLength(3);
  });
});

describe("Slack rate limits", () => {
  it("a 429 delays a post until Retry-After has passed, and the post is not lost", async () => {
    h = await startAlertHarness({ slackRetries: 1 });
    h.engine.start();
    // Polls run at 15 s, 45 s, 75 s… (jitter is pinned to the middle).
    await h.advance(30 * SEC);
    h.slack.script("chat.postMessage", { status: 429, retryAfter: 20 }, { status: 429, retryAfter: 20 });
    raiseAlert(h.sim.state, alert("CH1.FM1.ETH4"));
    await h.advance(30 * SEC);
    // The poll at 45 s found it; the Slack client retried once, then the notifier set it aside until 65 s.
    expect(h.slack.callsOf("chat.postMessage")).toHaveLength(2);
    expect(h.posts(STORAGE)).toHaveLength(0);
    expect(h.engine.stats().retries).toBe(1);
    await h.advance(4 * SEC);
    expect(h.posts(STORAGE)).toHaveLength(0);
    await h.advance(1 * SEC);
    expect(h.posts(STORAGE)).toHaveLength(1);
    await h.advance(2 * MIN);
    expect(h.posts(STORAGE)).toHaveLength(1);
  });
});

describe("array reachability", () => {
  it("an array down longer than the threshold gets one alert, resolved when it returns", async () => {
    h = await startAlertHarness();
    h.engine.start();
    await h.advance(30 * SEC);
    await h.sim.control.down();
    // 90 seconds of failures: below the 2 minute threshold, nothing is posted.
    await h.advance(90 * SEC);
    expect(h.posts(ONCALL)).toHaveLength(0);
    await h.advance(3 * MIN);
    const down = h.posts(ONCALL);
    expect(down).toHaveLength(1);
    expect(down[0]?.text).toContain("fb1 is unreachable");
    expect(JSON.stringify(down[0]?.blocks)).toContain("unreachable");

    await h.sim.control.up();
    await h.advance(30 * SEC);
    await h.advance(2 * MIN);
    const after = h.posts(ONCALL);
    expect(after).toHaveLength(1);
    expect(after[0]?.text).toContain("fb1 is reachable again");
    expect(h.thread(after[0]?.ts ?? "")).toEqual([expect.stringMatching(/^Reachable again after \dm/)]);
    expect(h.engine.stats()).toMatchObject({ unreachable: 2, reachable: 2 });
  });

  it("a short blip posts nothing", async () => {
    h = await startAlertHarness();
    h.engine.start();
    await h.advance(30 * SEC);
    await h.sim.control.down();
    await h.advance(60 * SEC);
    await h.sim.control.up();
    await h.advance(5 * MIN);
    expect(h.posts(ONCALL)).toHaveLength(0);
    expect(h.engine.stats().failedPolls).toBeGreaterThan(0);
  });
});
