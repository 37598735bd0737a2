/**
 * How the engine reads arrays, seen from the simulators' request logs: after the first poll only changes are
 * asked for, the full list of open alerts is re-read every `reconcile_every`, and polls keep to their slots.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Simulator } from "../../src/simulator/index.js";
import { createRng } from "../../src/simulator/models/random.js";
import { raiseAlert, updateAlert } from "../../src/simulator/state-control.js";
import { createMemoryStore } from "../../src/store/memory.js";
import type { Store, StoreOp } from "../../src/store/types.js";
import { type AlertHarness, startAlertHarness, T0 } from "./helpers/harness.js";

let h: AlertHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const INTERVAL = 30_000;
const OPEN = "state!='closed'";

interface AlertRead {
  at: number;
  filter: string | null;
  sort: string | null;
  limit: string | null;
}

/** Every GET of the alert list the simulator answered, in order, with its decoded parameters. */
function alertReads(sim: Simulator): AlertRead[] {
  return sim.control
    .stats()
    .recent.filter((r) => r.method === "GET" && /^\/api\/[\d.]+\/alerts$/.test(r.path))
    .map((r) => {
      const q = new URLSearchParams(r.query);
      return { at: r.at, filter: q.get("filter"), sort: q.get("sort"), limit: q.get("limit") };
    });
}

/** The reads of each poll (polls happen at distinct clock times), keyed by time since T0. */
function pollsOf(sim: Simulator): Map<number, AlertRead[]> {
  const polls = new Map<number, AlertRead[]>();
  for (const r of alertReads(sim)) polls.set(r.at - T0, [...(polls.get(r.at - T0) ?? []), r]);
  return polls;
}

/** A real memory store that notes each write (by namespace) and each list, for the polls that make them. */
function noting(store: Store): { store: Store; calls: string[] } {
  const calls: string[] = [];
  const wrapped: Store = {
    ...store,
    write: (ops: readonly StoreOp[], o) => {
      calls.push(`write ${ops.map((op) => op.ns).join(",")}`);
      return store.write(ops, o);
    },
    list: (ns, o) => {
      calls.push(`list ${ns}`);
      return store.list(ns, o);
    },
  };
  return { store: wrapped, calls };
}

/** A scripted random: the given values in order, then 0.5. */
function scripted(values: number[]): () => number {
  return () => values.shift() ?? 0.5;
}

describe("alert polling", () => {
  it("asks only for changes after the first poll, and re-reads the open list every reconcile_every", async () => {
    h = await startAlertHarness({ config: { jitter: 0, reconcile_every: 4 * INTERVAL } });
    const sim = h.sim;
    h.engine.start();
    // random() = 0.5 puts the first poll mid-interval.
    await h.advance(INTERVAL / 2);
    const first = T0 + INTERVAL / 2;
    // The open list (paged), then only the newest change, to start the cursor there.
    expect(alertReads(sim)).toMatchObject([
      { at: first, filter: OPEN, sort: null },
      { at: first, filter: null, sort: "updated-", limit: "1" },
    ]);

    const raised = raiseAlert(sim.state, {
      code: 1000,
      severity: "warning",
      component: "CH1.FB1",
      subject: "Blade CH1.FB1 is unhealthy",
      description: "A blade is unhealthy.",
    });
    // The simulator's record changes in place on update; keep the time of the raise.
    const raisedAt = raised.updated;
    await h.advance(INTERVAL);
    await h.advance(INTERVAL / 2);
    updateAlert(sim.state, raised.index, { severity: "critical" });
    const updatedAt = h.clock.now();
    await h.advance(9 * INTERVAL - INTERVAL / 2);

    const polls = pollsOf(sim);
    const since = (t: number) => `updated>=${t}`;
    const expected = new Map<number, (string | null)[]>([
      [INTERVAL / 2, [OPEN, null]],
      // Nothing was seen yet: changes since 0; then since the raise; then since the escalation.
      [INTERVAL * 1.5, [since(0)]],
      [INTERVAL * 2.5, [since(raisedAt)]],
      [INTERVAL * 3.5, [since(updatedAt)]],
      // reconcile_every (4 intervals) after the first poll: changes, then the whole open list.
      [INTERVAL * 4.5, [since(updatedAt), OPEN]],
      [INTERVAL * 5.5, [since(updatedAt)]],
      [INTERVAL * 6.5, [since(updatedAt)]],
      [INTERVAL * 7.5, [since(updatedAt)]],
      [INTERVAL * 8.5, [since(updatedAt), OPEN]],
      [INTERVAL * 9.5, [since(updatedAt)]],
      [INTERVAL * 10.5, [since(updatedAt)]],
    ]);
    expect(new Map([...polls].map(([t, reads]) => [t, reads.map((r) => r.filter)]))).toEqual(expected);
    expect(raisedAt).toBe(first);
    expect(h.engine.stats()).toMatchObject({ polls: 11, opened: 1 });
  });

  it("gives each of two arrays half the interval and moves each later poll by up to the jitter of its half", async () => {
    // Slots of 15 s in name order: fb1 at 0.1 of the first, fb2 at 0.7 of the second. After its first poll fb1
    // draws 0 (earliest: -10 % of its slot), fb2 draws 0.999 (latest: almost +10 %).
    h = await startAlertHarness({
      arrays: ["fb1", "fb2"],
      config: { jitter: 0.1 },
      random: scripted([0.1, 0.7, 0, 0.999]),
    });
    h.engine.start();
    await h.advance(2 * INTERVAL);
    const fb1 = alertReads(h.sims.get("fb1") as Simulator).map((r) => r.at - T0);
    const fb2 = alertReads(h.sims.get("fb2") as Simulator).map((r) => r.at - T0);
    const starts = (reads: number[]) => [...new Set(reads)];
    expect(starts(fb1).slice(0, 2)).toEqual([1_500, 1_500 + INTERVAL - 1_500]);
    expect(starts(fb2).slice(0, 2)).toEqual([25_500, 25_500 + INTERVAL + Math.round(1_500 * 0.998)]);
  });

  it("with many arrays, first polls start at different times within the first interval and stay out of step", async () => {
    const names = ["fb1", "fb2", "fb3", "fb4", "fb5", "fb6"];
    h = await startAlertHarness({ arrays: names, config: { jitter: 0.2 }, random: createRng(42) });
    h.engine.start();
    await h.advance(3 * INTERVAL);
    const pollTimes = names.map((n) => [
      ...new Set(alertReads(h?.sims.get(n) as Simulator).map((r) => r.at - T0)),
    ]);
    const firsts = pollTimes.map((t) => t[0] as number);
    expect(new Set(firsts).size).toBe(names.length);
    for (const t of firsts) {
      expect(t).toBeGreaterThanOrEqual(0);
      expect(t).toBeLessThan(INTERVAL);
    }
    const gaps = pollTimes.map((t) => (t[1] as number) - (t[0] as number));
    for (const g of gaps) {
      expect(g).toBeGreaterThanOrEqual(INTERVAL * 0.8);
      expect(g).toBeLessThanOrEqual(INTERVAL * 1.2);
    }
    expect(new Set(gaps).size).toBeGreaterThan(1);
  });

  it("writes nothing and wakes no notifier on a poll with no news; a change is written and posted", async () => {
    const noted = noting(createMemoryStore({ now: () => T0 }));
    h = await startAlertHarness({
      config: { jitter: 0, reconcile_every: 100 * INTERVAL },
      store: noted.store,
    });
    h.engine.start();
    await h.advance(INTERVAL / 2);
    expect(noted.calls.some((c) => c.startsWith("write"))).toBe(true); // the first poll starts the cursor
    noted.calls.length = 0;
    await h.advance(5 * INTERVAL);
    expect(h.engine.stats().polls).toBe(6);
    expect(noted.calls).toEqual([]);
    raiseAlert(h.sim.state, {
      code: 1000,
      severity: "critical",
      component: "CH1.FB1",
      subject: "Blade is unhealthy",
    });
    await h.advance(INTERVAL);
    expect(noted.calls[0]).toMatch(/^write .*alerts\.alert.*alerts\.outbox/);
    expect(noted.calls).toContain("list alerts.outbox");
    expect(h.engine.stats()).toMatchObject({ polls: 7, opened: 1 });
    expect(h.engine.stats().posts).toBeGreaterThan(0);
    noted.calls.length = 0;
    await h.advance(3 * INTERVAL);
    expect(noted.calls).toEqual([]);
  });
});
