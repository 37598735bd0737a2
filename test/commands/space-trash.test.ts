import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { formatBytes } from "../../src/core/words/units.js";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ arrays: [{ name: "lab-1" }, { name: "lab-2" }] });
  // One more destroyed object of each kind a trash listing shows: a snapshot of a live file system.
  const snap = [...h.sims.get("lab-1")!.state.snapshots.values()].find((s) => !s.destroyed);
  if (!snap) throw new Error("the demo array has no snapshot");
  snap.destroyed = true;
  snap.destroyedAt = Date.now();
});
afterAll(async () => h.close());

/** What the simulator holds in destroyed file systems and buckets: what eradicating them frees. */
function simTotal(array: string): number {
  const st = h.sims.get(array)!.state;
  let total = 0;
  for (const fs of st.fileSystems.values()) if (fs.destroyed) total += fs.space.unique + fs.space.snapshots;
  for (const b of st.buckets.values()) if (b.destroyed) total += b.space.unique + b.space.snapshots;
  return total;
}

describe("space trash", () => {
  test("lists every destroyed file system, snapshot and bucket, with a total that matches the simulator", async () => {
    const st = h.sims.get("lab-1")!.state;
    const effects = await h.run("carol", "space trash --array lab-1");
    const m = messagesOf(effects)[0]!;
    const table = m.blocks.find((b) => b.type === "table");
    if (table?.type !== "table") throw new Error("no table");
    const expected = [
      ...[...st.fileSystems.values()].filter((f) => f.destroyed).map((f) => `file system ${f.name}`),
      ...[...st.snapshots.values()].filter((s) => s.destroyed).map((s) => `snapshot ${s.name}`),
      ...[...st.buckets.values()].filter((b) => b.destroyed).map((b) => `bucket ${b.name}`),
    ].sort();
    expect(expected.length).toBeGreaterThanOrEqual(3);
    expect(table.rows.map((r) => `${r["kind"]} ${r["name"]}`).sort()).toEqual(expected);
    expect(m.text).toContain(`frees ${formatBytes(simTotal("lab-1"))}`);
    // Who destroyed it, from the array's audit log: the demo's old-share was destroyed by "ops-bot".
    expect(table.rows.find((r) => r["name"] === "old-share")?.["by"]).toMatch(/^ops-bot, /);
    // The array's own eradication countdown is shown for each object.
    expect(table.rows.every((r) => /^\d+[dhms]/.test(r["left"] ?? ""))).toBe(true);
  });

  test("--array all gives one table with an array column and the total over every array", async () => {
    const m = messagesOf(await h.run("carol", "space trash --array all"))[0]!;
    const table = m.blocks.find((b) => b.type === "table");
    if (table?.type !== "table") throw new Error("no table");
    expect(new Set(table.rows.map((r) => r["array"]))).toEqual(new Set(["lab-1", "lab-2"]));
    expect(m.text).toContain(`frees ${formatBytes(simTotal("lab-1") + simTotal("lab-2"))}`);
    expect(m.blocks.some((b) => b.type === "actions")).toBe(false);
  });

  test("Recover brings a destroyed file system back; a viewer may not use it", async () => {
    const effects = await h.run("carol", "space trash --array lab-2");
    expect(textOf(await h.click("carol", effects, "Recover old-share"))).toMatch(/operator/);
    expect(h.sims.get("lab-2")!.state.fileSystems.get("old-share")?.destroyed).toBe(true);
    expect(textOf(await h.click("bob", effects, "Recover old-share"))).toContain("Recovered");
    expect(h.sims.get("lab-2")!.state.fileSystems.get("old-share")?.destroyed).toBe(false);
  });

  test("Eradicate is gated like fs eradicate: the click asks for approval, nothing is removed until then", async () => {
    const effects = await h.run("alice", "space trash --array lab-1");
    const gated = await h.click("alice", effects, "Eradicate old-share");
    expect(textOf(gated)).toContain("Approval");
    expect(h.sims.get("lab-1")!.state.fileSystems.has("old-share")).toBe(true);
    const approved = await h.click("dave", gated, "Approve", "old-share");
    expect(textOf(approved)).toContain("Eradicated");
    expect(h.sims.get("lab-1")!.state.fileSystems.has("old-share")).toBe(false);
    const audit = h.audits.filter((a) => a.command === "fs.eradicate");
    // "executing" is written just before the array call, then the outcome.
    expect(audit.map((a) => a.decision)).toEqual(["pending", "executing", "approved"]);
  });
});
