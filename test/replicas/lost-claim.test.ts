/**
 * The backstop of exactly once (issue 44, docs/replicas.md): a failover that lost the last writes of the old
 * primary can hand out a request's approval again, its record back at "pending" on the promoted replica. The next
 * approval then finds the array no longer in the state the card was computed from, and the change is not sent a
 * second time. Here the lost writes are played on a real Redis by putting the record back as it was before the
 * approval, which is what the promoted replica would hold.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDurablePendingStore } from "../../src/core/approvals/pending-store-durable.js";
import { blockAction } from "../fakes/payloads.js";
import { requestCount } from "../helpers/wire.js";
import { type RunSlackWorld, startRunSlackWorld } from "../slack/helpers/run-slack.js";
import { type RedisServer, startRedis } from "../store/redis-server.js";
import { type Replica, replicaConfig, requestShrink, SharedTime, startReplica } from "./harness.js";

let world: RunSlackWorld;
let redis: RedisServer;
const replicas: Replica[] = [];

beforeAll(async () => {
  world = await startRunSlackWorld();
  redis = await startRedis();
  const loaded = replicaConfig(world, redis, [], false);
  const time = new SharedTime();
  for (const name of ["r1", "r2"]) replicas.push(await startReplica(name, loaded, time));
});

afterAll(async () => {
  for (const r of replicas) await r.stop();
  await redis?.close();
  await world?.close();
});

const patches = () => requestCount(world.sim.control.stats(), "PATCH /api/1.12/file-systems");

describe("an approval handed out again by a failover that lost its claim", () => {
  it("is not sent twice: the array no longer shows the state the card was computed from", async () => {
    const { fake } = world;
    const [r1, r2] = replicas as [Replica, Replica];
    const { ts, approve } = await requestShrink(fake, "9T", r1);
    const pending = createDurablePendingStore(r1.store());
    const before = await pending.get(approve.value);
    expect(before?.status).toBe("pending");
    const click = (on: Replica, id: string, user: string) =>
      on.driver.interactive(
        blockAction({
          actionId: approve.action_id,
          value: approve.value,
          userId: user,
          messageTs: ts,
          responseUrl: fake.responseUrl(id),
        }),
      );
    const start = patches();
    await click(r1, "first", "UOPS1");
    await fake.waitForUpdate((u) => JSON.stringify(u.blocks).includes("Resized"));
    expect(patches() - start).toBe(1);

    // The promoted replica never received the claim, the execution or its end: the request waits again.
    await pending.update(approve.value, { status: "pending", approvals: [], updatedAt: Date.now() });
    await click(r2, "again", "UOPS2");
    const again = await fake.waitForResponse((r) => r.id === "again");
    expect(JSON.stringify(again.body)).toContain("Not run: the array lab-1 changed since this was requested");
    expect(patches() - start).toBe(1);
    expect((await pending.get(approve.value))?.status).toBe("voided");
  });
});
