import { describe, expect, it } from "vitest";
import { BotError } from "../../src/errors.js";
import { eq } from "../../src/flashblade/filter.js";
import { poolOf, seen, simConfig, startSim } from "./sim.js";

async function codeOf(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  return err instanceof BotError ? err.code : `not a BotError: ${String(err)}`;
}

describe("typed resources against the demo array", () => {
  it("reads every typed listing of the demo scenario without a contract error", async () => {
    const sim = await startSim({ scenario: "demo" });
    const c = poolOf([simConfig(sim)]).list()[0]!;
    const fss = await c.fileSystems.list();
    expect(fss.items.length).toBeGreaterThan(0);
    expect(fss.totalItemCount).toBe(fss.items.length);
    const snaps = await c.snapshots.list();
    expect(snaps.items.length).toBeGreaterThan(0);
    const alerts = await c.alerts.list({ filter: eq("state", "open") });
    expect(alerts.items.every((a) => a.state === "open")).toBe(true);
    const info = await c.arrays.info();
    expect(info.name).toBe(sim.arrayName);
    const space = await c.arrays.space();
    expect(space.capacity).toBeGreaterThan(0);
    expect((await c.arrays.performance()).time).toBeTypeOf("number");
    await c.buckets.list();
    await c.quotas.users();
    await c.quotas.groups();
    await c.quotas.userUsage();
    await c.quotas.groupUsage();
    for (const fs of fss.items) await c.replicaLinks.forFileSystem(fs.name);
  });

  it("creates, resizes, destroys, recovers and eradicates a file system and its snapshots", async () => {
    const sim = await startSim();
    const c = poolOf([simConfig(sim)]).list()[0]!;
    const created = await c.fileSystems.create({
      name: "scratch",
      provisioned: 1_000_000,
      nfs: { v3_enabled: true },
    });
    expect(created).toMatchObject({ name: "scratch", provisioned: 1_000_000, destroyed: false });
    expect(
      (await c.fileSystems.update("scratch", { provisioned: 2_000_000 }, { ignoreUsage: true })).provisioned,
    ).toBe(2_000_000);
    expect(seen(sim, "PATCH", "/api/1.12/file-systems").at(-1)?.get("ignore_usage")).toBe("true");

    const [snap] = await c.snapshots.create(["scratch"], "before");
    expect(snap?.name).toBe("scratch.before");
    expect((await c.snapshots.get("scratch.before"))?.source).toBe("scratch");
    expect((await c.snapshots.destroy("scratch.before")).destroyed).toBe(true);
    expect((await c.snapshots.recover("scratch.before")).destroyed).toBe(false);
    await c.snapshots.destroy("scratch.before");
    await c.snapshots.eradicate("scratch.before");
    expect(await c.snapshots.get("scratch.before")).toBeUndefined();

    expect((await c.fileSystems.destroy("scratch")).destroyed).toBe(true);
    expect((await c.fileSystems.recover("scratch")).destroyed).toBe(false);
    expect(await codeOf(c.fileSystems.eradicate("scratch"))).toBe("ARRAY_REJECTED");
    await c.fileSystems.destroy("scratch");
    await c.fileSystems.eradicate("scratch");
    expect(await c.fileSystems.get("scratch")).toBeUndefined();
    expect(await c.count("/file-systems")).toBe(0);
  });

  it("flags and unflags an alert", async () => {
    const sim = await startSim({ scenario: "demo" });
    const c = poolOf([simConfig(sim)]).list()[0]!;
    const [first] = (await c.alerts.list({ limit: 1 })).items;
    if (!first) throw new Error("the demo scenario has alerts");
    const flagged = await c.alerts.setFlagged(first.name, !first.flagged);
    expect(flagged.flagged).toBe(!first.flagged);
    expect(seen(sim, "PATCH", "/api/1.12/alerts").at(-1)?.get("names")).toBe(first.name);
  });

  it("refuses an unknown endpoint path before sending", async () => {
    const sim = await startSim();
    const c = poolOf([simConfig(sim)]).list()[0]!;
    expect(await codeOf(c.get("/file-sytems"))).toBe("ARRAY_ENDPOINT_UNKNOWN");
  });
});
