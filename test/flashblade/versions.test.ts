import { describe, expect, it } from "vitest";
import { BotError } from "../../src/errors.js";
import { bucketSchema, fileSystemSchema } from "../../src/flashblade/schemas.js";
import type { Snapshot } from "../../src/flashblade/types.js";
import {
  bucketCreate,
  promotionOf,
  SNAPSHOT_NAMES_PARAM,
  snapshotCreate,
} from "../../src/flashblade/wire.js";
import { poolOf, seen, simConfig, startSim } from "./sim.js";

async function codeOf(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  return err instanceof BotError ? err.code : `not a BotError: ${String(err)}`;
}

const TOPS = ["1.4", "1.8", "1.8.1", "1.11", "1.12"] as const;

describe("version negotiation and wire differences", () => {
  for (const top of TOPS) {
    it(`speaks ${top} to an array that stops there, with that version's parameter names`, async () => {
      const sim = await startSim({ versions: `1.0-${top}` });
      const c = poolOf([simConfig(sim)]).list()[0]!;
      expect(await c.version()).toBe(top);
      const base = `/api/${top}`;

      await c.send(await c.fileSystems.planCreate({ name: "fs1", provisioned: 1024 }));
      const [updated] = await c.send(
        await c.fileSystems.planUpdate("fs1", { provisioned: 2048 }),
        fileSystemSchema,
      );
      expect(updated?.provisioned).toBe(2048);
      expect(seen(sim, "PATCH", `${base}/file-systems`).map((q) => [...q.keys()])).toEqual([["name"]]);
      expect(seen(sim, "PATCH", `${base}/file-systems`)[0]?.get("name")).toBe("fs1");

      // Counting: total_only where the version still has it, limit=1 + total_item_count at 1.12.
      expect(await c.count("/file-systems")).toBe(1);
      const countQuery = seen(sim, "GET", `${base}/file-systems`).at(-1);
      if (top === "1.12") {
        expect(countQuery?.get("limit")).toBe("1");
        expect(countQuery?.has("total_only")).toBe(false);
      } else {
        expect(countQuery?.get("total_only")).toBe("true");
      }

      // As `snapshot create` and `snapshot list --fs` send them.
      await c.post("/file-system-snapshots", snapshotCreate(["fs1"], "s1"));
      const snaps = await c.get<Snapshot>("/file-system-snapshots", {
        query: { [SNAPSHOT_NAMES_PARAM]: ["fs1"] },
      });
      expect(snaps.items.map((s) => s.name)).toEqual(["fs1.s1"]);
      expect(seen(sim, "GET", `${base}/file-system-snapshots`).at(-1)?.get("names_or_sources")).toBe("fs1");

      // Buckets: POST /buckets arrived in 1.5; the account reference is `account` to 1.8, `bucket` from 1.9.
      await c.post("/object-store-accounts", { query: { names: ["acct1"] } });
      const before = sim.control.stats().total;
      // As `bucket create` sends it.
      const createBucket = async () =>
        c.post("/buckets", { ...bucketCreate(await c.version(), "bucket-1", "acct1"), schema: bucketSchema });
      if (top === "1.4") {
        expect(await codeOf(createBucket())).toBe("ARRAY_VERSION_TOO_OLD");
        expect(sim.control.stats().total).toBe(before);
      } else {
        const [bucket] = await createBucket();
        expect(bucket?.name).toBe("bucket-1");
      }

      // Replication exists from 1.9: older arrays report no links without being asked.
      const links = await c.replicaLinks.forFileSystem("fs1");
      expect(links).toEqual([]);
      const asked = sim.control.stats().requests[`GET ${base}/file-system-replica-links`] ?? 0;
      expect(asked).toBe(top === "1.11" || top === "1.12" ? 1 : 0);

      // Replication throughput: `async` on the 1.x wire, 1.12 included (`periodic` is 2.x); read either way.
      if (top === "1.11" || top === "1.12") {
        const [sample] = await c.arrays.replicationPerformance();
        expect(sample?.throughput?.transmitted_bytes_per_sec).toBeTypeOf("number");
        expect(sample?.async).toBeDefined();
      } else {
        expect(await codeOf(c.arrays.replicationPerformance())).toBe("ARRAY_VERSION_TOO_OLD");
      }

      const fs = await c.fileSystems.get("fs1");
      expect(fs?.name).toBe("fs1");
      if (top === "1.11" || top === "1.12") expect(promotionOf(fs ?? {})).toBe("promoted");
    });
  }

  it("refuses, before sending, a call the array's version does not have, naming both versions", async () => {
    const sim = await startSim({ versions: "1.0" });
    const c = poolOf([simConfig(sim, { name: "fb-old" })]).list()[0]!;
    await c.send(await c.fileSystems.planCreate({ name: "fs1" }));
    const before = sim.control.stats().total;
    // As the catalogue's `fs eradicate` plans it: one DELETE selecting the file system by name.
    const err = await c.delete("/file-systems", { query: { name: "fs1" } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BotError);
    expect((err as BotError).code).toBe("ARRAY_VERSION_TOO_OLD");
    expect((err as BotError).message).toBe(
      "DELETE /file-systems needs REST 1.1, fb-old runs 1.0. Nothing was sent.",
    );
    expect(await codeOf(c.fileSystems.planDestroy("fs1").then((plan) => c.send(plan)))).toBe(
      "ARRAY_VERSION_TOO_OLD",
    );
    expect(await codeOf(c.alerts.list())).toBe("ARRAY_VERSION_TOO_OLD");
    expect(sim.control.stats().total).toBe(before);
  });

  it("speaks a pinned version, and refuses one the array lacks", async () => {
    const sim = await startSim({ versions: "1.0-1.12" });
    const pinned = poolOf([simConfig(sim, { apiVersion: "1.9" })]).list()[0]!;
    await pinned.get("/file-systems");
    expect(sim.control.stats().requests["GET /api/1.9/file-systems"]).toBe(1);

    const old = await startSim({ versions: "1.0-1.8" });
    const c = poolOf([simConfig(old, { apiVersion: "1.12", name: "fb-8" })]).list()[0]!;
    const err = await c.version().catch((e: unknown) => e);
    expect((err as BotError).code).toBe("ARRAY_VERSION_UNSUPPORTED");
    expect((err as BotError).message).toContain("pinned API version 1.12");
    expect(c.health().lastError?.code).toBe("ARRAY_VERSION_UNSUPPORTED");
  });
});
