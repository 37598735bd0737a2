/**
 * Approvals and Slack deliveries with three replicas on one Redis: a click that lands on any replica acts
 * once, a retry that lands on another replica is dropped, and approvals survive a Redis restart and pause
 * (with a clear answer) while Redis is down.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blockAction, eventCallback, slashCommand } from "../fakes/payloads.js";
import type { FakeSlackApi } from "../fakes/slack-api-server.js";
import { requestCount } from "../helpers/wire.js";
import { type RunSlackWorld, startRunSlackWorld } from "../slack/helpers/run-slack.js";
import { type RedisServer, startRedis } from "../store/redis-server.js";
import { type Replica, replicaConfig, requestShrink, SharedTime, startReplica } from "./harness.js";

let world: RunSlackWorld;
let redis: RedisServer;
let replicas: Replica[] = [];
let seq = 0;

beforeAll(async () => {
  world = await startRunSlackWorld();
  redis = await startRedis({ persistence: true });
  const loaded = replicaConfig(world, redis, [], false);
  const time = new SharedTime();
  replicas = [];
  for (const name of ["r1", "r2", "r3"]) replicas.push(await startReplica(name, loaded, time));
});

afterAll(async () => {
  for (const r of replicas) await r.stop();
  await redis?.close();
  await world?.close();
});

const replica = (i: number): Replica => replicas[i % replicas.length] as Replica;
const patches = () => requestCount(world.sim.control.stats(), "PATCH /api/1.12/file-systems");

function click(
  on: Replica,
  fake: FakeSlackApi,
  ts: string,
  approve: { action_id: string; value: string },
  user: string,
) {
  const id = `click-${++seq}`;
  return {
    id,
    acked: on.driver.interactive(
      blockAction({
        actionId: approve.action_id,
        value: approve.value,
        userId: user,
        messageTs: ts,
        responseUrl: fake.responseUrl(id),
      }),
    ),
  };
}

describe("approvals across three replicas on Redis", () => {
  it("20 concurrent approval clicks spread over the replicas execute the change once", async () => {
    const { fake } = world;
    const { ts, approve } = await requestShrink(fake, "9T", replica(0));
    const before = patches();
    const clicks = Array.from({ length: 20 }, (_, i) => click(replica(i), fake, ts, approve, `UOPS${i + 1}`));
    const acks = await Promise.all(clicks.map((c) => c.acked));
    expect(acks.every((a) => a.status === 200)).toBe(true);
    const done = await fake.waitForUpdate((u) => JSON.stringify(u.blocks).includes("Resized"));
    expect(JSON.stringify(done.blocks)).toContain("Resized *builds* on lab-1");
    expect(patches() - before).toBe(1);
    expect(world.sim.state.fileSystems.get("builds")?.provisioned).toBe(9 * 2 ** 40);
  });

  it("the change approved above is in the history every replica reads: requester, approver, request sent", async () => {
    const { fake } = world;
    for (const [i, on] of replicas.entries()) {
      await on.driver.command(
        slashCommand({
          text: "history fs builds",
          userId: "UVIEW",
          responseUrl: fake.responseUrl(`hist-${i}`),
        }),
      );
      const answer = await fake.waitForResponse((r) => r.id === `hist-${i}`);
      const text = JSON.stringify(answer.body);
      expect(text).toContain("1 change to fs builds on lab-1 through this bot");
      expect(text).toMatch(/requested by alice · Approved by uops\d+ — done/);
      expect(text).toContain(`lab-1: PATCH /file-systems?`);
    }
  });

  it("a Slack retry of a command or an event delivered to another replica is dropped", async () => {
    const { fake } = world;
    const cmd = slashCommand({
      text: "fs list --limit 1",
      userId: "UVIEW",
      responseUrl: fake.responseUrl("list-1"),
    });
    await replica(0).driver.command(cmd);
    await replica(1).driver.command(cmd);
    await fake.waitForResponse((r) => r.id === "list-1");
    // Whichever replica claimed Slack's trigger id second dropped its copy: no second answer.
    const dup = await Promise.race(
      [replica(0), replica(1)].map((r) =>
        r.app.log.waitFor((l) => l["msg"] === "duplicate delivery of a command ignored"),
      ),
    );
    expect(dup["reqId"]).toBe(cmd["trigger_id"]);
    expect(fake.responses.filter((r) => r.id === "list-1")).toHaveLength(1);

    const ev = eventCallback(
      { type: "app_home_opened", user: "UVIEW", channel: "D1", tab: "home" },
      "EvRETRY1",
    );
    await replica(2).driver.event(ev);
    await replica(0).driver.event(ev, { retryNum: 1 });
    await fake.waitForCall("views.publish", (c) => c.args["user_id"] === "UVIEW");
    const dropped = await Promise.race(
      [replica(0), replica(2)].map((r) =>
        r.app.log.waitFor((l) => l["msg"] === "duplicate delivery of an event ignored"),
      ),
    );
    expect(dropped["eventId"]).toBe("EvRETRY1");
    expect(fake.callsOf("views.publish").filter((c) => c.args["user_id"] === "UVIEW")).toHaveLength(1);
  });

  it("a Redis restart with persistence loses no pending approval", async () => {
    const { fake } = world;
    const { ts, approve } = await requestShrink(fake, "8T", replica(1));
    const downs = replicas.map((r) => r.nextStoreDown());
    await redis.kill();
    await Promise.all(downs);
    const ups = replicas.map((r) => r.nextStoreUp());
    await redis.start();
    await Promise.all(ups);
    const before = patches();
    const c = click(replica(2), fake, ts, approve, "UOPS1");
    await c.acked;
    const done = await fake.waitForUpdate((u) => JSON.stringify(u.blocks).includes("→ 8 TiB"));
    expect(done.ts).toBe(ts);
    expect(patches() - before).toBe(1);
  });

  it("with Redis down, reads answer, an approval click answers paused and /readyz is not ready; after Redis returns it completes once", async () => {
    const { fake } = world;
    const { ts, approve } = await requestShrink(fake, "7T", replica(0));
    const downs = replicas.map((r) => r.nextStoreDown());
    await redis.kill();
    await Promise.all(downs);
    const r = replica(1);

    // A read-only command needs no shared state.
    await r.driver.command(
      slashCommand({
        text: "fs list --limit 1",
        userId: "UVIEW",
        responseUrl: fake.responseUrl("list-down"),
      }),
    );
    const list = await fake.waitForResponse((x) => x.id === "list-down");
    expect(JSON.stringify(list.body)).toContain("file systems on array lab-1");

    const before = patches();
    const paused = click(r, fake, ts, approve, "UOPS2");
    await paused.acked;
    const answer = await fake.waitForResponse((x) => x.id === paused.id);
    expect(JSON.stringify(answer.body)).toMatch(
      /Paused: the bot's shared state store \(Redis\) is unreachable/,
    );
    expect(patches()).toBe(before);

    // A new request that needs an approval pauses the same way, and sends nothing to the array.
    await r.driver.command(
      slashCommand({
        text: "fs resize builds 6T",
        userId: "UBOB",
        responseUrl: fake.responseUrl("req-down"),
      }),
    );
    const refused = await fake.waitForResponse((x) => x.id === "req-down");
    expect(JSON.stringify(refused.body)).toMatch(
      /Paused: the bot's shared state store \(Redis\) is unreachable/,
    );
    expect(patches()).toBe(before);

    const ready = await fetch(`${r.app.baseUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ ready: false, store: { up: false } });
    expect((await fetch(`${r.app.baseUrl}/healthz`)).status).toBe(200);
    const metrics = await (await fetch(`${r.app.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/^array_chatops_store_up 0$/m);
    expect(
      Number(/^array_chatops_store_errors_total\{op="read"\} (\d+)$/m.exec(metrics)?.[1] ?? 0),
    ).toBeGreaterThan(0);

    const ups = replicas.map((x) => x.nextStoreUp());
    await redis.start();
    await Promise.all(ups);
    expect((await fetch(`${r.app.baseUrl}/readyz`)).status).toBe(200);
    const again = click(replica(2), fake, ts, approve, "UOPS3");
    await again.acked;
    await fake.waitForUpdate((u) => JSON.stringify(u.blocks).includes("→ 7 TiB"));
    expect(patches() - before).toBe(1);
  });
});
