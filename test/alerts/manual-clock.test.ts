/** The manual clock the replay, the benchmarks and the tests run on: timers fire in time order, ties in set order. */
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/alerts/manual-clock.js";

describe("manual clock", () => {
  it("fires due timers earliest first (ties in the order set), skips cleared ones, and leaves later ones", async () => {
    const clock = new ManualClock(1000);
    const fired: string[] = [];
    const at = (name: string, ms: number) => clock.setTimer(() => fired.push(`${name}@${clock.now()}`), ms);
    at("c", 30);
    at("a", 10);
    const gone = at("x", 20);
    at("b1", 20);
    at("b2", 20);
    at("late", 500);
    // A timer set while firing, due within the advance, fires in it too.
    clock.setTimer(() => at("chained", 5), 25);
    clock.clearTimer(gone);
    expect(clock.pending).toBe(6);
    expect(clock.nextDue()).toBe(1010);
    await clock.advance(100);
    expect(fired).toEqual(["a@1010", "b1@1020", "b2@1020", "c@1030", "chained@1030"]);
    expect(clock.now()).toBe(1100);
    expect(clock.pending).toBe(1);
    expect(clock.nextDue()).toBe(1500);
  });
});
