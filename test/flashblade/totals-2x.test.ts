/**
 * Counting on both generations: 1.12 took `total_only` from file systems and snapshots, so the client counts
 * there with one item and `total_item_count`; 2.x has `total_only` on them again (the 2.x table), and the client
 * asks for the total alone. Over real HTTPS against the simulator.
 */
import { describe, expect, it } from "vitest";
import { totalsAllowed } from "../../src/flashblade/wire.js";
import { poolOf, seen, simConfig, startSim } from "./sim.js";

describe("count", () => {
  it.each([
    ["1.0-1.12", "1.12", false],
    ["2.0-2.28", "2.28", true],
  ])(
    "on an array serving %s counts file systems and snapshots with total_only: %s",
    async (versions, v, asked) => {
      const sim = await startSim({ versions, scenario: "demo" });
      const c = poolOf([simConfig(sim)]).list()[0]!;
      for (const path of ["/file-systems", "/file-system-snapshots"]) {
        const all: unknown[] = [];
        for await (const x of c.iterate(path)) all.push(x);
        sim.control.resetStats();
        expect(await c.count(path), path).toBe(all.length);
        const q = seen(sim, "GET", `/api/${v}${path}`)[0];
        expect(q?.get("total_only"), path).toBe(asked ? "true" : null);
      }
    },
  );

  it("reads which 2.x versions have total_only from the table", () => {
    expect(totalsAllowed("/file-systems", "1.12")).toBe(false);
    expect(totalsAllowed("/file-systems", "2.0")).toBe(true);
    // bucket-replica-links gained total_only at 2.2.
    expect(totalsAllowed("/bucket-replica-links", "2.1")).toBe(false);
    expect(totalsAllowed("/bucket-replica-links", "2.2")).toBe(true);
    expect(totalsAllowed("/keytabs", "2.28")).toBe(false);
  });
});
