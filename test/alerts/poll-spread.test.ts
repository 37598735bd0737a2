/**
 * No thundering herd: a thousand configured arrays polled every 30 s start their polls spread over the interval,
 * interval after interval. The arrays are cheap in-process sources (an AlertSource port answering "no alerts"),
 * time is the manual clock, and what is counted is when each array's first read of each poll arrived.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AlertEngine } from "../../src/alerts/engine.js";
import { createAlertEngine } from "../../src/alerts/engine.js";
import { ManualClock } from "../../src/alerts/manual-clock.js";
import type { AlertChat, AlertSource } from "../../src/alerts/types.js";
import { defaultAlertsConfig } from "../../src/config/alerts.js";
import { createRng } from "../../src/simulator/models/random.js";
import { createMemoryStore } from "../../src/store/memory.js";

const ARRAYS = 1000;
const INTERVAL = 30_000;
const SLICES = 100;
const T0 = Date.UTC(2024, 2, 4, 10, 0, 0);

let engine: AlertEngine | undefined;
afterEach(async () => {
  await engine?.stop();
  engine = undefined;
});

/** Arrays with nothing to report, recording when each poll began (its first read at a new clock time). */
function quietFleet(clock: ManualClock) {
  const names = Array.from({ length: ARRAYS }, (_, i) => `fb-${String(i).padStart(4, "0")}`);
  const lastRead = new Map<string, number>();
  const starts: { array: string; at: number }[] = [];
  const source: AlertSource = {
    arrays: () => names.map((name) => ({ name, tags: [] })),
    async list(array) {
      const at = clock.now();
      if (lastRead.get(array) !== at) starts.push({ array, at });
      lastRead.set(array, at);
      return [];
    },
    async setFlagged() {},
    supportsAlerts: async () => true,
    async probe() {},
  };
  return { names, source, starts };
}

const chat: AlertChat = {
  post: async () => ({ channelId: "C1", ts: "1.0" }),
  update: async () => undefined,
  postInThread: async () => undefined,
};

describe("alert polling of a large fleet", () => {
  it("starts the polls of 1,000 arrays spread over the interval, every interval", async () => {
    const clock = new ManualClock(T0);
    const fleet = quietFleet(clock);
    engine = createAlertEngine({
      config: defaultAlertsConfig({ poll_interval: "30s", jitter: 0.1 }),
      source: fleet.source,
      chat,
      store: createMemoryStore({ now: clock.now }),
      authorizer: { allowed: async () => true },
      clock,
      random: createRng(7),
    });
    engine.start();
    const e = engine;
    await clock.advance(4 * INTERVAL, () => e.idle());

    for (let round = 0; round < 4; round++) {
      const from = T0 + round * INTERVAL;
      const inRound = fleet.starts.filter((s) => s.at >= from && s.at < from + INTERVAL);
      // Every array once per interval…
      expect(new Set(inRound.map((s) => s.array)).size).toBe(ARRAYS);
      // …and no slice of the interval (300 ms) holds many more than its even share (10).
      const perSlice = new Array<number>(SLICES).fill(0);
      for (const s of inRound) {
        const i = Math.floor(((s.at - from) / INTERVAL) * SLICES);
        perSlice[i] = (perSlice[i] ?? 0) + 1;
      }
      expect(Math.max(...perSlice)).toBeLessThanOrEqual(12);
      expect(Math.min(...perSlice)).toBeGreaterThanOrEqual(8);
    }
  });
});
