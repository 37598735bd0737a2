/** `max_concurrent_polls` caps polls: with a cap of one, two polls never overlap, however calls interleave. */
import { describe, expect, test } from "vitest";
import { pollGate } from "../../src/alerts/mutex.js";

/** Resolves after `n` turns of the microtask queue. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await Promise.resolve();
}

describe("poll gate", () => {
  test("a cap of one never runs two, even when a new poll arrives while a waiter is being woken", async () => {
    const gate = pollGate(1);
    let active = 0;
    let most = 0;
    let done = 0;
    const poll = async () => {
      active += 1;
      most = Math.max(most, active);
      await turns(3);
      active -= 1;
      done += 1;
    };
    // Newcomers arrive at every microtask depth, so one of them lands in the moment between a finished poll
    // releasing its slot and the woken waiter taking it (the window the old Semaphore left open).
    const all: Promise<void>[] = [gate.schedule(poll), gate.schedule(poll)];
    for (let depth = 0; depth < 40; depth++) {
      all.push(turns(depth).then(() => gate.schedule(poll)));
    }
    await Promise.all(all);
    expect(done).toBe(42);
    expect(most).toBe(1);
  });

  test("a cap of three runs three at once and queues the rest in order", async () => {
    const gate = pollGate(3);
    const order: number[] = [];
    let active = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        gate.schedule(async () => {
          active += 1;
          most = Math.max(most, active);
          order.push(i);
          await turns(2);
          active -= 1;
        }),
      ),
    );
    expect(most).toBe(3);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });
});
