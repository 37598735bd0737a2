/**
 * The load test's failover mode on a short run (`npm run load -- --failover` is the full form): three replicas
 * on a real Redis primary and replica under three real sentinels, the primary SIGKILLed at half time while
 * commands and approvals go on. The run must see every replica leave the rotation and come back once the
 * replica is promoted, answer every request, and reconcile with nothing applied twice and nothing lost.
 * Real redis-server and redis-sentinel processes (bench/redis/), so an integration file.
 */
import { describe, expect, it } from "vitest";
import { runLoad } from "../../bench/load/run-load.js";

describe("load test, failover mode, short form", () => {
  it("kills the primary mid-run; every replica ready again; nothing doubled, lost or unanswered", async () => {
    const report = await runLoad({
      arrays: 3,
      rate: 10,
      seconds: 14,
      users: 8,
      faults: false,
      seed: 11,
      drainMs: 20_000,
      botInChild: false,
      failover: { replicas: 3 },
    });
    const f = report.failover;
    expect(f?.replicas).toBe(3);
    expect(f?.promotedTheReplica).toBe(true);
    // Every replica was seen not ready after the kill, and all were ready again.
    expect(f?.notReadyAfterMs.every((ms) => ms !== undefined)).toBe(true);
    expect(Number.isFinite(f?.readyAgainAfterMs)).toBe(true);
    // The promotion was seen; which a 50 ms prober sees first, it or the replicas' readiness, is a race.
    expect(Number.isFinite(f?.promotedAfterMs)).toBe(true);
    // Approvals whose cards came before the kill were clicked in the gap and told to try again, and each of
    // those was clicked again once every replica was ready and answered. Carried out, or (seen in the 60-second
    // run, docs/benchmarks.md, open in issue 44) told to try again once more: not asserted either way.
    // Counted over the held approvals: other approvals may be clicked in the gap too, and are not clicked again.
    const gap = Object.entries(f?.heldGapApprovals ?? {});
    expect(gap.length).toBeGreaterThan(0);
    for (const [answer] of gap) expect(answer).toMatch(/^(paused: try again|carried out|already)/);
    const paused = f?.heldGapApprovals["paused: try again"] ?? 0;
    const again = Object.entries(f?.againApprovals ?? {});
    expect(again.reduce((n, [, k]) => n + k, 0)).toBe(paused);
    for (const [answer] of again) expect(answer).toMatch(/^(carried out|paused: try again)$/);
    // Nothing doubled, nothing lost. Not asserted: "unreported", a change the array applied while the bot's record
    // of it says otherwise. A change whose array call finishes just as the primary dies is recorded (and answered)
    // STORE_UNAVAILABLE although the array has it: a finding of this mode, open in issue 44, seen in longer runs.
    expect(report.reconciliation).toMatchObject({ appliedTwice: [], lost: [], driverErrors: [] });
    expect(report.unanswered).toBe(0);
    expect(report.leftListening).toEqual({ stubWaits: 0, optional: 0, waiting: 0 });
    expect(report.reconciliation.applied["create"]).toBeGreaterThan(0);
    // The run is 14 s of load and up to 20 s of drain, after starting Redis, three sentinels and three replicas:
    // about 22 s on a quiet machine, past 60 s when the full suite shares two cores with it. A bound on a hang,
    // not a figure asserted.
  }, 150_000);
});
