import { describe, expect, it } from "vitest";
import { parseCliArgs } from "../../../src/simulator/cli-args.js";
import { GROWTH_DAYS_TO_FULL } from "../../../src/simulator/scenarios/growth.js";
import { SLOW_NFS_CLIENT } from "../../../src/simulator/scenarios/slow-nfs.js";
import { DAY, HOUR, list, q, sim, T0 } from "./helpers.js";

type Row = Record<string, number>;
const usec = (rows: readonly Row[]) =>
  rows.reduce((a, r) => a + (r["usec_per_read_op"] ?? 0), 0) / rows.length;

function latency(
  state: ReturnType<typeof sim>["state"],
  protocol: string,
  start: number,
  end: number,
): number {
  const page = list(
    state,
    "/arrays/performance",
    q({ protocol, start_time: start, end_time: end, resolution: 300_000 }),
  );
  return usec(page.items as Row[]);
}

describe("incident scenarios", () => {
  it("slow-nfs: NFS latency jumps for the last hour only, other protocols and earlier days stay usual", () => {
    const { state } = sim("slow-nfs");
    const nowNfs = latency(state, "nfs", T0 - 50 * 60_000, T0);
    const yesterdayNfs = latency(state, "nfs", T0 - DAY - 50 * 60_000, T0 - DAY);
    expect(nowNfs / yesterdayNfs).toBeGreaterThan(4);
    const nowSmb = latency(state, "smb", T0 - 50 * 60_000, T0);
    const yesterdaySmb = latency(state, "smb", T0 - DAY - 50 * 60_000, T0 - DAY);
    expect(nowSmb / yesterdaySmb).toBeGreaterThan(0.8);
    expect(nowSmb / yesterdaySmb).toBeLessThan(1.25);
    expect(latency(state, "nfs", T0 - 3 * HOUR, T0 - 2 * HOUR) / yesterdayNfs).toBeLessThan(1.5);
    // One client does most of the work now.
    const clients = list(state, "/arrays/clients/performance").items as (Row & { name: string })[];
    const ops = (c: Row) =>
      (c["reads_per_sec"] ?? 0) + (c["writes_per_sec"] ?? 0) + (c["others_per_sec"] ?? 0);
    const total = clients.reduce((a, c) => a + ops(c), 0);
    const top = [...clients].sort((a, b) => ops(b) - ops(a))[0]!;
    expect(top.name).toBe(SLOW_NFS_CLIENT);
    expect(ops(top) / total).toBeGreaterThan(0.5);
  });

  it("growth: used space follows the known rate, with noise, and reaches capacity on the recorded day", () => {
    const { state } = sim("growth");
    const truth = state.effects?.truth ?? {};
    expect(truth["fullAt"]).toBe(T0 + GROWTH_DAYS_TO_FULL * DAY);
    const rate = Number(truth["bytesPerDay"]);
    const page = list(
      state,
      "/arrays/space",
      q({ start_time: T0 - 20 * DAY, end_time: T0, resolution: HOUR }),
    );
    const used = (page.items as { space: Row }[]).map((i) => i.space["total_physical"] ?? 0);
    const first = used[0]!;
    const last = used[used.length - 1]!;
    expect((last - first) / 20 / rate).toBeGreaterThan(0.9);
    expect((last - first) / 20 / rate).toBeLessThan(1.1);
    // Noise: consecutive hours do not rise by exactly rate/24.
    const steps = new Set(used.slice(1).map((u, i) => Math.round((u - used[i]!) / 1e9)));
    expect(steps.size).toBeGreaterThan(10);
    expect(Number(truth["usedAtStart"]) + rate * GROWTH_DAYS_TO_FULL).toBeCloseTo(state.array.capacity, -6);
  });

  it("both are named scenarios of the command line", () => {
    expect(parseCliArgs(["--scenario", "slow-nfs"])).toMatchObject({
      ok: true,
      args: { scenario: "slow-nfs" },
    });
    expect(parseCliArgs(["--scenario", "growth"])).toMatchObject({ ok: true, args: { scenario: "growth" } });
  });
});
