import { describe, expect, it } from "vitest";
import { errorCode } from "../../src/errors.js";
import { HealthTracker } from "../../src/flashblade/health.js";

function tracker(downAfter = 3) {
  let now = Date.parse("2026-03-01T14:02:00Z");
  const events: string[] = [];
  const h = new HealthTracker(
    "fb1",
    downAfter,
    () => now,
    (e) => events.push(e),
  );
  return { h, events, now: () => now, advance: (ms: number) => (now += ms) };
}

function admitError(h: HealthTracker): Error | undefined {
  try {
    h.admit();
    return undefined;
  } catch (err) {
    return err as Error;
  }
}

describe("array health", () => {
  it("one call with no answer within its deadline opens the breaker at once; user calls never probe", () => {
    const { h, events, advance } = tracker(3);
    h.timedOut("no answer within 30000 ms");
    expect(events).toEqual(["down"]);
    expect(h.snapshot()).toMatchObject({
      status: "down",
      reachable: false,
      down: { reason: "no answer within 30000 ms" },
    });
    expect(errorCode(admitError(h))).toBe("ARRAY_UNREACHABLE");
    advance(2_000);
    // Past the interval a user's call (mayProbe false, background probing on) still fails fast…
    expect(() => h.admit(false)).toThrow(/unreachable since/);
    // …and the background probe goes through; its answer closes the breaker.
    expect(() => h.admit(true)).not.toThrow();
    h.reached(12);
    expect(events).toEqual(["down", "up"]);
    expect(h.snapshot().reachable).toBe(true);
  });

  it("marks an array down after N consecutive connection failures and fails fast", () => {
    const { h, events } = tracker(3);
    h.connectFailed("connection refused");
    h.connectFailed("connection refused");
    expect(admitError(h)).toBeUndefined();
    h.connectFailed("connection refused");
    expect(events).toEqual(["down"]);
    const err = admitError(h);
    expect(errorCode(err)).toBe("ARRAY_UNREACHABLE");
    expect(err?.message).toBe(
      "array fb1 is unreachable since 14:02 UTC (connection refused); retrying in 2s",
    );
    expect(h.snapshot()).toMatchObject({ status: "down", reachable: false });
  });

  it("a success in between resets the count", () => {
    const { h } = tracker(2);
    h.connectFailed("x");
    h.reached(5);
    h.connectFailed("x");
    expect(admitError(h)).toBeUndefined();
  });

  it("lets exactly one probe through once the interval has passed", () => {
    const { h, advance } = tracker(1);
    h.connectFailed("refused");
    advance(1999);
    expect(errorCode(admitError(h))).toBe("ARRAY_UNREACHABLE");
    advance(1);
    expect(admitError(h)).toBeUndefined(); // the probe
    expect(errorCode(admitError(h))).toBe("ARRAY_UNREACHABLE"); // others keep failing fast meanwhile
    h.connectFailed("refused"); // the probe failed: next interval 4 s
    advance(3999);
    expect(errorCode(admitError(h))).toBe("ARRAY_UNREACHABLE");
    advance(1);
    expect(admitError(h)).toBeUndefined();
  });

  it("grows the interval 2, 4, 8 … capped at 60 s, and recovers on success", () => {
    const { h, advance, events, now } = tracker(1);
    h.connectFailed("refused");
    const seen: number[] = [];
    for (let i = 0; i < 8; i++) {
      const d = h.snapshot().down;
      if (!d) throw new Error("expected down");
      const msg = admitError(h)?.message ?? "";
      seen.push(Number(/retrying in (\d+)s/.exec(msg)?.[1]));
      advance(d.retryAt - now());
      h.admit();
      h.connectFailed("refused");
    }
    expect(seen).toEqual([2, 4, 8, 16, 32, 60, 60, 60]);
    advance(60_000);
    h.admit();
    h.reached(3);
    expect(events.at(-1)).toBe("up");
    expect(admitError(h)).toBeUndefined();
    expect(h.snapshot()).toMatchObject({ status: "up", reachable: true, latencyMs: { samples: 1, p50: 3 } });
  });

  it("reports latency percentiles over recent calls", () => {
    const { h } = tracker();
    for (let i = 1; i <= 100; i++) h.reached(i);
    expect(h.snapshot().latencyMs).toEqual({ p50: 51, p95: 96, samples: 100 });
  });
});
