/**
 * Executions have owners. A replica started while another carries out an approved change (a rolling update)
 * leaves that change alone: it finishes once, and no card or audit says "interrupted". A replica killed during
 * an execution has it marked interrupted once its lease lapses, and the card says what the array really shows,
 * read back request by request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoadedConfig } from "../../src/config/load.js";
import type { PendingRecord } from "../../src/core/approvals/pending-store.js";
import { blockAction } from "../fakes/payloads.js";
import { requestCount } from "../helpers/wire.js";
import { type RunSlackWorld, startRunSlackWorld } from "../slack/helpers/run-slack.js";
import { type RedisServer, startRedis } from "../store/redis-server.js";
import { type Replica, replicaConfig, requestShrink, SharedTime, startReplica } from "./harness.js";

let world: RunSlackWorld;
let redis: RedisServer;
let loaded: LoadedConfig;
let time: SharedTime;
let replicas: Replica[] = [];
let seq = 0;

beforeAll(async () => {
  world = await startRunSlackWorld();
  redis = await startRedis();
  loaded = replicaConfig(world, redis, [], false);
  time = new SharedTime();
  replicas = [];
  for (const name of ["r1", "r2", "r3"]) replicas.push(await startReplica(name, loaded, time));
});

afterAll(async () => {
  for (const r of replicas) await r.stop();
  await redis?.close();
  await world?.close();
});

const TIB = 2 ** 40;
const patches = () => requestCount(world.sim.control.stats(), "PATCH /api/1.12/file-systems");
const blocksOf = (c: { args: Record<string, unknown> }) => JSON.stringify(c.args["blocks"]);

/** Asks on `on` for a shrink that needs one approval; returns the card's ts, the record id and an approver. */
async function shrinkToApprove(size: string, on: Replica) {
  const { fake } = world;
  const { ts, approve } = await requestShrink(fake, size, on);
  const approveOn = (r: Replica, user: string) =>
    r.driver.interactive(
      blockAction({
        actionId: approve.action_id,
        value: approve.value,
        userId: user,
        messageTs: ts,
        responseUrl: fake.responseUrl(`click-${++seq}`),
      }),
    );
  return { ts, id: approve.value, approveOn };
}

const record = (r: Replica, id: string) => r.store().get<PendingRecord>("pending", id);

describe("executions have owners", () => {
  it("a fourth replica started while another carries out an approved change leaves it alone", async () => {
    const { fake } = world;
    const [r1] = replicas as [Replica];
    const { ts, id, approveOn } = await shrinkToApprove("9T", r1);
    // The array takes its time over the change, so the execution is still running when r4 starts.
    const slow = world.sim.control.addLatency({ path: "/file-systems", method: "PATCH", ms: 3_000 });
    const before = patches();
    try {
      await approveOn(r1, "UOPS1");
      await expect.poll(async () => (await record(r1, id))?.executor, { timeout: 10_000 }).toBe("r1");
      expect((await record(r1, id))?.status).toBe("claimed");
      const r4 = await startReplica("r4", loaded, time);
      replicas.push(r4);
      // r4's start-up recovery ran (startReplica waits for it) and saw r1's live lease.
      expect((await record(r4, id))?.status).toBe("claimed");
      const done = await fake.waitForUpdate(
        (u) => u.ts === ts && JSON.stringify(u.blocks).includes("Resized"),
      );
      expect(JSON.stringify(done.blocks)).toContain("Resized *builds* on lab-1");
    } finally {
      world.sim.control.clearFaults(slow);
    }
    expect(patches() - before).toBe(1);
    expect((await record(r1, id))?.status).toBe("executed");
    expect(fake.updates.filter((u) => JSON.stringify(u.blocks).includes("Interrupted"))).toEqual([]);
    expect(world.sim.state.fileSystems.get("builds")?.provisioned).toBe(9 * TIB);
  });

  it("a replica killed during an execution has it marked interrupted, with what the array shows on the card", async () => {
    const { fake } = world;
    const r2 = replicas[1] as Replica;
    const { ts, id, approveOn } = await shrinkToApprove("8T", r2);
    // The PATCH waits, then its connection is reset: it never reaches the file system.
    const slow = world.sim.control.addLatency({ path: "/file-systems", method: "PATCH", ms: 2_000 });
    const lost = world.sim.control.resetConnections({ path: "/file-systems", method: "PATCH", count: 1 });
    try {
      await approveOn(r2, "UOPS2");
      await expect.poll(async () => (await record(r2, id))?.executor, { timeout: 10_000 }).toBe("r2");
      await r2.kill();
      // Nobody renews r2's lease now; past the lease time it has lapsed.
      await time.advance(16_000);
      const r5 = await startReplica("r5", loaded, time);
      replicas.push(r5);
      const card = await fake.waitForCall(
        "chat.update",
        (c) => c.args["ts"] === ts && blocksOf(c).includes("Interrupted"),
      );
      expect(blocksOf(card)).toContain("Interrupted before the change reached lab-1");
      expect(blocksOf(card)).toContain(
        `PATCH /file-systems builds: not done, provisioned is ${9 * TIB}, planned ${8 * TIB}`,
      );
      expect((await record(r5, id))?.status).toBe("interrupted");
      expect((await record(r5, id))?.executor).toBe("r2");
    } finally {
      world.sim.control.clearFaults(slow);
      world.sim.control.clearFaults(lost);
    }
    expect(world.sim.state.fileSystems.get("builds")?.provisioned).toBe(9 * TIB);
  });
});
