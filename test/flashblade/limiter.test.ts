import { describe, expect, it } from "vitest";
import { BotError } from "../../src/errors.js";
import { ArrayLimiter } from "../../src/flashblade/limiter.js";

/** A job that runs until the test releases it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { open, opened };
}

describe("array limiter", () => {
  it("runs at most maxConcurrent at once, in arrival order", async () => {
    const limiter = new ArrayLimiter("fb1", { maxConcurrent: 2, minSpacingMs: 0, maxQueue: 10 });
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, gate);
    const runs = gates.map((g, i) =>
      limiter.schedule(async () => {
        started.push(i);
        await g.opened;
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(limiter.counts()).toEqual({ inFlight: 2, queued: 3 });
    gates[1]?.open();
    await runs[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(limiter.counts()).toEqual({ inFlight: 0, queued: 0 });
  });

  it("lets an urgent call run one beyond maxConcurrent, and queue ahead of the others", async () => {
    const limiter = new ArrayLimiter("fb1", { maxConcurrent: 1, minSpacingMs: 0, maxQueue: 10 });
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof gate>>();
    const job = (name: string) => () => {
      started.push(name);
      const g = gate();
      gates.set(name, g);
      return g.opened.then(() => name);
    };
    const runs = [
      limiter.schedule(job("a")),
      limiter.schedule(job("b")),
      limiter.schedule(job("u1"), true),
      limiter.schedule(job("u2"), true),
    ];
    await Promise.resolve();
    // u1 runs beside a; u2 waits, ahead of b.
    expect(started).toEqual(["a", "u1"]);
    expect(limiter.counts()).toEqual({ inFlight: 2, queued: 2 });
    gates.get("a")?.open();
    await runs[0];
    await Promise.resolve();
    expect(started).toEqual(["a", "u1", "u2"]);
    // u1's slot was the one beyond the bound: b waits for a slot within it.
    gates.get("u1")?.open();
    await runs[2];
    await Promise.resolve();
    expect(started).toEqual(["a", "u1", "u2"]);
    gates.get("u2")?.open();
    await runs[3];
    await Promise.resolve();
    expect(started).toEqual(["a", "u1", "u2", "b"]);
    gates.get("b")?.open();
    expect(await Promise.all(runs)).toEqual(["a", "b", "u1", "u2"]);
    expect(limiter.counts()).toEqual({ inFlight: 0, queued: 0 });
  });

  it("fails fast with ARRAY_BUSY when the queue is full", async () => {
    const limiter = new ArrayLimiter("fb1", { maxConcurrent: 1, minSpacingMs: 0, maxQueue: 2 });
    const g = gate();
    const held = [0, 1, 2].map(() => limiter.schedule(() => g.opened));
    const err = await limiter.schedule(async () => 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BotError);
    expect((err as BotError).code).toBe("ARRAY_BUSY");
    expect((err as BotError).message).toBe("array fb1 is busy (2 calls queued); try again shortly");
    // An urgent call runs one beyond the bound, but does not wait beyond the queue's.
    const beyond = limiter.schedule(() => g.opened, true);
    const urgentErr = await limiter.schedule(async () => 1, true).catch((e: unknown) => e);
    expect((urgentErr as BotError).code).toBe("ARRAY_BUSY");
    g.open();
    await beyond;
    await Promise.all(held);
    await expect(limiter.schedule(async () => "ok")).resolves.toBe("ok");
  });

  it("spaces call starts by min_spacing_ms using the injected clock and sleep", async () => {
    let now = 1000;
    const waits: number[] = [];
    const limiter = new ArrayLimiter(
      "fb1",
      { maxConcurrent: 4, minSpacingMs: 50, maxQueue: 10 },
      () => now,
      async (ms) => {
        waits.push(ms);
      },
    );
    await Promise.all([1, 2, 3].map(() => limiter.schedule(async () => undefined)));
    expect(waits).toEqual([50, 100]);
    now += 1000;
    await limiter.schedule(async () => undefined);
    expect(waits).toEqual([50, 100]);
  });

  it("stop() fails queued calls and refuses new ones", async () => {
    const limiter = new ArrayLimiter("fb1", { maxConcurrent: 1, minSpacingMs: 0, maxQueue: 5 });
    const g = gate();
    const running = limiter.schedule(() => g.opened);
    const queued = limiter.schedule(async () => "never");
    limiter.stop(new Error("closing"));
    await expect(queued).rejects.toThrow("closing");
    await expect(limiter.schedule(async () => 1)).rejects.toThrow("closing");
    g.open();
    await running;
  });
  it("is idle only with nothing running or queued and the spacing run out (a new limiter would start no sooner)", async () => {
    let now = 1_000;
    const limiter = new ArrayLimiter("fb1", { maxConcurrent: 1, minSpacingMs: 100, maxQueue: 10 }, () => now);
    expect(limiter.idle).toBe(true);
    const g = gate();
    const run = limiter.schedule(() => g.opened);
    expect(limiter.idle).toBe(false);
    g.open();
    await run;
    // The next call may start 100 ms after this one started.
    now += 99;
    expect(limiter.idle).toBe(false);
    now += 1;
    expect(limiter.idle).toBe(true);
  });
});
