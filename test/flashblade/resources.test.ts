import { describe, expect, it } from "vitest";
import { poolAlertSource } from "../../src/alerts/pool-source.js";
import { BotError } from "../../src/errors.js";
import { eq } from "../../src/flashblade/filter.js";
import { fileSystemSchema, snapshotSchema } from "../../src/flashblade/schemas.js";
import type { Alert } from "../../src/flashblade/types.js";
import { snapshotCreate } from "../../src/flashblade/wire.js";
import { wirePath } from "../helpers/wire.js";
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
    // The listings the typed reads are built on, read with the same schemas.
    const fss = await c.get("/file-systems", { schema: fileSystemSchema });
    expect(fss.items.length).toBeGreaterThan(0);
    expect(fss.totalItemCount).toBe(fss.items.length);
    const snaps = await c.get("/file-system-snapshots", { schema: snapshotSchema });
    expect(snaps.items.length).toBeGreaterThan(0);
    expect((await c.snapshots.get(snaps.items[0]?.name ?? ""))?.name).toBe(snaps.items[0]?.name);
    const alerts = await c.alerts.list({ filter: eq("state", "open") });
    expect(alerts.items.every((a) => a.state === "open")).toBe(true);
    const info = await c.arrays.info();
    expect(info.name).toBe(sim.arrayName);
    const space = await c.arrays.space();
    expect(space.capacity).toBeGreaterThan(0);
    expect((await c.arrays.performance()).time).toBeTypeOf("number");
    for (const fs of fss.items) await c.replicaLinks.forFileSystem(fs.name);
  });

  it("creates, resizes, destroys, recovers and eradicates a file system and its snapshots", async () => {
    const sim = await startSim();
    const c = poolOf([simConfig(sim)]).list()[0]!;
    // Planned as fs create / fs resize plan them, then sent as planned: the one send path.
    const [created] = await c.send(
      await c.fileSystems.planCreate({ name: "scratch", provisioned: 1_000_000, nfs: { v3_enabled: true } }),
      fileSystemSchema,
    );
    expect(created).toMatchObject({ name: "scratch", provisioned: 1_000_000, destroyed: false });
    const resize = await c.fileSystems.planUpdate(
      "scratch",
      { provisioned: 2_000_000 },
      { ignoreUsage: true },
    );
    expect((await c.send(resize, fileSystemSchema))[0]?.provisioned).toBe(2_000_000);
    expect(seen(sim, "PATCH", wirePath("PATCH", "/api/1.12/file-systems")).at(-1)?.get("ignore_usage")).toBe(
      "true",
    );

    // Snapshots as `snapshot create` and the catalogue's destroy, recover and eradicate send them.
    const snapshot = { query: { name: "scratch.before" }, schema: snapshotSchema };
    const [snap] = await c.post("/file-system-snapshots", {
      ...snapshotCreate(["scratch"], "before"),
      schema: snapshotSchema,
    });
    expect(snap?.name).toBe("scratch.before");
    expect((await c.snapshots.get("scratch.before"))?.source).toBe("scratch");
    expect(
      (await c.patch("/file-system-snapshots", { ...snapshot, body: { destroyed: true } }))[0]?.destroyed,
    ).toBe(true);
    expect(
      (await c.patch("/file-system-snapshots", { ...snapshot, body: { destroyed: false } }))[0]?.destroyed,
    ).toBe(false);
    await c.patch("/file-system-snapshots", { ...snapshot, body: { destroyed: true } });
    await c.delete("/file-system-snapshots", { query: snapshot.query });
    expect(await c.snapshots.get("scratch.before")).toBeUndefined();

    const destroy = () => c.fileSystems.planDestroy("scratch").then((plan) => c.send(plan, fileSystemSchema));
    const recover = () =>
      c.fileSystems
        .planUpdate("scratch", { destroyed: false })
        .then((plan) => c.send(plan, fileSystemSchema));
    const eradicate = () => c.delete("/file-systems", { query: { name: "scratch" } });
    expect((await destroy())[0]?.destroyed).toBe(true);
    expect((await recover())[0]?.destroyed).toBe(false);
    expect(await codeOf(eradicate())).toBe("ARRAY_REJECTED");
    await destroy();
    await eradicate();
    expect(await c.fileSystems.get("scratch")).toBeUndefined();
    expect(await c.count("/file-systems")).toBe(0);
  });

  it("flags and unflags an alert through the alert engine's source", async () => {
    const sim = await startSim({ scenario: "demo" });
    const pool = poolOf([simConfig(sim)]);
    const c = pool.list()[0]!;
    const [first] = (await c.alerts.list({ limit: 1 })).items;
    if (!first) throw new Error("the demo scenario has alerts");
    await poolAlertSource(pool).setFlagged(c.name, first.name, !first.flagged);
    const [after] = (await c.get<Alert>("/alerts", { query: { names: [first.name] } })).items;
    expect(after?.flagged).toBe(!first.flagged);
    expect(seen(sim, "PATCH", wirePath("PATCH", "/api/1.12/alerts")).at(-1)?.get("names")).toBe(first.name);
  });

  it("refuses an unknown endpoint path before sending", async () => {
    const sim = await startSim();
    const c = poolOf([simConfig(sim)]).list()[0]!;
    expect(await codeOf(c.get("/file-sytems"))).toBe("ARRAY_ENDPOINT_UNKNOWN");
  });
});
