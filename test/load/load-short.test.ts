/**
 * The load test's short form in CI: a few seconds of signed commands and clicks (reads, creates, confirmed
 * destroys with double clicks, approved eradications with double submits) over simulated arrays with faults
 * (latency, 503s, resets, one array down, Slack 429s), then the reconciliation of the arrays' own audit logs
 * with the bot's audit records. The full form is `npm run load`.
 */
import { describe, expect, it } from "vitest";
import { type LoadReport, runLoad } from "../../bench/load/run-load.js";

/** Every request answered, and the arrays' own logs agree with the bot's audit: nothing lost, twice or unreported. */
function expectReconciled(report: LoadReport): void {
  expect(report.reconciliation).toMatchObject({
    appliedTwice: [],
    lost: [],
    unreported: [],
    driverErrors: [],
  });
  expect(report.unanswered).toBe(0);
}

describe("load test, short form", () => {
  it("answers every request, loses no effect and applies none twice", async () => {
    const report = await runLoad({
      arrays: 12,
      rate: 25,
      seconds: 8,
      users: 16,
      faults: true,
      seed: 7,
      drainMs: 30_000,
      // The child forms (bot and arrays in their own processes) run from the build, in `npm run load`.
      botInChild: false,
    });
    expectReconciled(report);
    // The driver leaves nothing listening: each approval's waits for Slack calls end with it.
    expect(report.leftListening).toEqual({ stubWaits: 0, optional: 0, waiting: 0 });
    // Memory sampled each second while sending, with the growth over the last half computed from them.
    expect(report.memory.samples.length).toBeGreaterThanOrEqual(7);
    expect(Number.isFinite(report.memory.rssGrowthLastHalfMiB)).toBe(true);
    for (const kind of ["read", "create", "destroy", "confirm"] as const) {
      expect(report.latencyMs[kind].n, kind).toBeGreaterThan(0);
    }
    expect(report.reconciliation.applied["create"]).toBeGreaterThan(0);
    expect(report.reconciliation.applied["destroy"]).toBeGreaterThan(0);
    // The arrays' file systems counted at each memory mark (after warm-up, at half, at the end), from the
    // arrays' own state: the destroys the load applied are there, still listed until eradicated.
    expect(report.fileSystemsAtMarks).toHaveLength(3);
    const [warm, , end] = report.fileSystemsAtMarks;
    expect(end?.destroyed).toBeGreaterThan(warm?.destroyed ?? Number.POSITIVE_INFINITY);
    expect(end?.total).toBeGreaterThanOrEqual(end?.destroyed ?? Number.POSITIVE_INFINITY);
    // Each timed approval that was carried out is split by its eradication's DELETE, seen by the bot's call
    // observer (bench/load/approve-trace.ts): the three parts are the approval's whole time.
    const bd = report.approveBreakdown;
    const carried = report.reconciliation.applied["eradicate"] ?? 0;
    if (carried > 0) expect(bd?.matched).toBeGreaterThan(0);
    for (const s of bd?.slowest ?? []) {
      expect(s.before + s.arrays + s.after).toBeCloseTo(s.total, 3);
      // Each call as `@<ms from the click> METHOD <ms>`.
      expect(s.calls.some((c) => /^@\d+ DELETE \d+!?$/.test(c))).toBe(true);
    }
  }, 90_000);

  it("with pending approvals in SQLite on disk (`--pending sqlite`, as a deployment without Redis), the same", async () => {
    const report = await runLoad({
      arrays: 6,
      rate: 20,
      seconds: 5,
      users: 8,
      faults: true,
      seed: 11,
      drainMs: 30_000,
      botInChild: false,
      pending: "sqlite",
    });
    expectReconciled(report);
    expect(report.reconciliation.applied["destroy"]).toBeGreaterThan(0);
    // Read back from the database: every destroy leaves its Recover offer open.
    expect(report.pendingRecords).toBeGreaterThan(0);
  }, 90_000);
});
