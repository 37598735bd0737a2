/**
 * `perf nfs list` and `diagnose` read one NFS: the operations by kind (`/arrays/nfs-specific-performance`) add up
 * to the NFS operations `/arrays/performance?protocol=nfs` reports for the same moment, on a quiet array and during
 * the slow-nfs incident, through the bot's own client.
 */
import { afterEach, expect, test } from "vitest";
import { type Harness, startHarness } from "../core/harness.js";

let h: Harness | undefined;
afterEach(async () => h?.close());

const KINDS = /^(?!aggregate_)[a-z]+_per_sec$/;

for (const scenario of ["demo", "slow-nfs"] as const) {
  test(`NFS operations by kind add up to the NFS total (${scenario})`, async () => {
    h = await startHarness({ arrays: [{ name: "lab-1", scenario }], shareClock: true, simulatorClock: true });
    const client = h.pool.get("lab-1");
    const [kinds] = (await client.get<Record<string, number>>("/arrays/nfs-specific-performance", {})).items;
    const [total] = (
      await client.get<Record<string, number>>("/arrays/performance", { query: { protocol: "nfs" } })
    ).items;
    if (!kinds || !total) throw new Error("no sample");
    expect(kinds["time"]).toBe(total["time"]);
    const sum = Object.entries(kinds)
      .filter(([k]) => KINDS.test(k))
      .reduce((a, [, v]) => a + Number(v), 0);
    const ops =
      (total["reads_per_sec"] ?? 0) + (total["writes_per_sec"] ?? 0) + (total["others_per_sec"] ?? 0);
    expect(sum).toBe(ops);
    expect(kinds["reads_per_sec"]).toBe(total["reads_per_sec"]);
  });
}
