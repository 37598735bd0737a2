/**
 * A Redis that hangs with its connections open (SIGSTOP, what a silent network partition looks like): every
 * replica's /readyz turns 503 and its store gauge 0 within a few seconds, and both come back once Redis answers
 * again. An approval clicked during the hang pauses, and so does a change that needs no approval (refused before it
 * reaches the array); clicked again afterwards the approval runs once.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardButton } from "../fakes/card-buttons.js";
import { blockAction, slashCommand } from "../fakes/payloads.js";
import { requestCount } from "../helpers/wire.js";
import { type RunSlackWorld, startRunSlackWorld } from "../slack/helpers/run-slack.js";
import { type RedisServer, startRedis } from "../store/redis-server.js";
import { type Replica, replicaConfig, SharedTime, startReplica } from "./harness.js";

let world: RunSlackWorld;
let redis: RedisServer;
let replicas: Replica[] = [];

beforeAll(async () => {
  world = await startRunSlackWorld();
  redis = await startRedis();
  const loaded = replicaConfig(world, redis, [], false);
  const time = new SharedTime();
  replicas = [];
  for (const name of ["r1", "r2", "r3"]) replicas.push(await startReplica(name, loaded, time));
});

afterAll(async () => {
  redis?.resume();
  for (const r of replicas) await r.stop();
  await redis?.close();
  await world?.close();
});

/** Polls `probe` until it returns true; fails after `withinMs` (a bound, not a synchronisation sleep). */
async function until(what: string, probe: () => Promise<boolean>, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const readyStatus = async (r: Replica) => (await fetch(`${r.app.baseUrl}/readyz`)).status;
const storeGauge = async (r: Replica) =>
  /^array_chatops_store_up (\d)$/m.exec(await (await fetch(`${r.app.baseUrl}/metrics`)).text())?.[1];
const patches = () => requestCount(world.sim.control.stats(), "PATCH /api/1.12/file-systems");

describe("three replicas when Redis hangs", () => {
  it("SIGSTOP: /readyz 503 on every replica within 5 s; SIGCONT: 200 again; an approval runs once", async () => {
    const { fake } = world;
    const [r1, r2, r3] = replicas as [Replica, Replica, Replica];
    for (const r of replicas) expect(await readyStatus(r)).toBe(200);

    // A request waiting for one approval, made while Redis answers.
    const inC1 = (c: { args: Record<string, unknown> }) => c.args["channel"] === "C1";
    const before = fake.callsOf("chat.postMessage").filter(inC1).length;
    await r1.driver.command(
      slashCommand({
        text: "fs resize builds 9T",
        userId: "UBOB",
        responseUrl: fake.responseUrl("hang-req"),
      }),
    );
    const card = await fake.waitForCall("chat.postMessage", inC1, before + 1);
    const ts = [...fake.messages.values()].filter((m) => m.channel === "C1").at(-1)?.ts ?? "";
    const approve = cardButton(card, "approve");
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
    const startPatches = patches();

    redis.pause();
    try {
      await Promise.all(
        replicas.map((r) =>
          until(`${r.name} /readyz 503`, async () => (await readyStatus(r)) === 503, 5_000),
        ),
      );
      for (const r of replicas) {
        const body = (await (await fetch(`${r.app.baseUrl}/readyz`)).json()) as { store: { up: boolean } };
        expect(body.store.up).toBe(false);
        expect(await storeGauge(r)).toBe("0");
        expect((await fetch(`${r.app.baseUrl}/healthz`)).status).toBe(200);
      }
      // An approval clicked now pauses with the clear message and sends nothing.
      await click(r2, "hang-click-1", "UOPS1");
      const paused = await fake.waitForResponse((x) => x.id === "hang-click-1");
      expect(JSON.stringify(paused.body)).toMatch(
        /Paused: the bot's shared state store \(Redis\) is unreachable/,
      );
      expect(patches()).toBe(startPatches);
      // A change that needs no approval is refused the same way before it reaches the array: nothing half done.
      await r3.driver.command(
        slashCommand({
          text: "fs resize home 30T",
          userId: "UBOB",
          responseUrl: fake.responseUrl("hang-grow"),
        }),
      );
      const grow = await fake.waitForResponse((x) => x.id === "hang-grow");
      expect(JSON.stringify(grow.body)).toMatch(
        /Paused: the bot's shared state store \(Redis\) is unreachable/,
      );
      expect(patches()).toBe(startPatches);
    } finally {
      redis.resume();
    }
    // Back within a second of Redis answering (bounded at 2 s for a loaded machine).
    await Promise.all(
      replicas.map((r) => until(`${r.name} /readyz 200`, async () => (await readyStatus(r)) === 200, 2_000)),
    );
    for (const r of replicas) expect(await storeGauge(r)).toBe("1");

    await click(r3, "hang-click-2", "UOPS2");
    await fake.waitForUpdate((u) => JSON.stringify(u.blocks).includes("→ 9 TiB"));
    await click(r1, "hang-click-3", "UOPS3");
    await fake.waitForResponse((x) => x.id === "hang-click-3");
    expect(patches() - startPatches).toBe(1);
  });
});
