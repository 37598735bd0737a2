/**
 * Exactly once across a failover (issue 44): a Redis primary, a replica and three sentinels (quorum 2), three
 * bot replicas that find the primary through the sentinels, four changes waiting for approval. Every change is
 * approved on every replica at once while the primary is SIGKILLed mid-execution and the replica promoted:
 * every click is answered (done, already handled, or a clear try-again), /readyz is 503 without a writable primary
 * and 200 once the promoted one answers, and in the end each change was sent to the array exactly once and no
 * request was lost. Real redis-server and redis-sentinel processes (sentinel-group.ts), so an integration file.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardButton } from "../fakes/card-buttons.js";
import { blockAction, slashCommand } from "../fakes/payloads.js";
import { requestCount } from "../helpers/wire.js";
import { loadRunSlackConfig, type RunSlackWorld, startRunSlackWorld } from "../slack/helpers/run-slack.js";
import { type Replica, SharedTime, startReplica } from "./harness.js";
import { MASTER_NAME, type SentinelGroup, startSentinelGroup, until } from "./sentinel-group.js";

const TIB = 2 ** 40;
/** Shrinks below usage: each needs one approval (demo scenario sizes and usage). */
const CHANGES = [
  { fs: "builds", size: "9T", bytes: 9 * TIB },
  { fs: "projects", size: "40T", bytes: 40 * TIB },
  { fs: "ml-datasets", size: "60T", bytes: 60 * TIB },
  { fs: "home", size: "10T", bytes: 10 * TIB },
];

let world: RunSlackWorld;
let seq = 0;
let group: SentinelGroup;
let replicas: Replica[] = [];

beforeAll(async () => {
  world = await startRunSlackWorld();
  group = await startSentinelGroup();
  const loaded = loadRunSlackConfig(world, [
    "access:",
    "  default_role: none",
    "  operator: { users: [UBOB, UOPS1, UOPS2, UOPS3, UOPS4, UOPS5, UOPS6] }",
    "store:",
    "  kind: redis",
    `  sentinels: [${group.sentinels.join(", ")}]`,
    `  sentinel_name: ${MASTER_NAME}`,
    "  lease_ttl: 15s",
    "alerts:",
    "  enabled: false",
  ]);
  const time = new SharedTime();
  for (const name of ["r1", "r2", "r3"]) replicas.push(await startReplica(name, loaded, time));
}, 60_000);

afterAll(async () => {
  for (const r of replicas) await r.stop();
  replicas = [];
  await group?.close();
  await world?.close();
});

/** Each replica's last /readyz answer: a wait for readiness that times out says what the replica reported. */
const lastReport = new Map<string, string>();
const readyz = async (r: Replica) => {
  const res = await fetch(`${r.app.baseUrl}/readyz`);
  lastReport.set(r.name, await res.text());
  return res.status;
};
/** Waits until `r` is ready; a timeout names what it last reported (its store's state and why). */
const ready = (r: Replica, withinMs: number) =>
  until(`${r.name} ready`, async () => (await readyz(r)) === 200, withinMs).catch((err: unknown) => {
    throw new Error(
      `${err instanceof Error ? err.message : String(err)}; its last /readyz: ${lastReport.get(r.name)}`,
    );
  });
const patches = () => requestCount(world.sim.control.stats(), "PATCH /api/1.12/file-systems");

describe("three replicas on Redis with Sentinel when the primary dies", () => {
  it("SIGKILL mid-execution: every click answered, each change sent exactly once, none lost", async () => {
    const { fake, sim } = world;
    for (const r of replicas) expect(await readyz(r)).toBe(200);
    const inC1 = (c: { args: Record<string, unknown> }) => c.args["channel"] === "C1";
    const cards: { ts: string; approve: { action_id: string; value: string } }[] = [];
    for (const [i, c] of CHANGES.entries()) {
      const before = fake.callsOf("chat.postMessage").filter(inC1).length;
      await replicas[i % 3]?.driver.command(
        slashCommand({
          text: `fs resize ${c.fs} ${c.size}`,
          userId: "UBOB",
          responseUrl: fake.responseUrl(`req-${i}`),
        }),
      );
      const card = await fake.waitForCall("chat.postMessage", inC1, before + 1);
      const ts = [...fake.messages.values()].filter((m) => m.channel === "C1").at(-1)?.ts ?? "";
      cards.push({ ts, approve: cardButton(card, "approve") });
    }
    const click = async (on: Replica, card: (typeof cards)[number], user: string) => {
      const id = `click-${++seq}`;
      const ack = await on.driver.interactive(
        blockAction({
          actionId: card.approve.action_id,
          value: card.approve.value,
          userId: user,
          messageTs: card.ts,
          responseUrl: fake.responseUrl(id),
        }),
      );
      expect(ack.status).toBe(200);
      return (await fake.waitForResponse((r) => r.id === id)).body;
    };

    // The first two changes are approved on every replica at once; the array takes its time with each PATCH, so
    // their executions are still running when the primary dies.
    sim.control.addLatency({ path: "/file-systems", method: "PATCH", ms: 4_000 });
    const running = cards
      .slice(0, 2)
      .flatMap((card) => replicas.map((r, j) => click(r, card, `UOPS${j + 1}`)));
    await until("both PATCHes reached the array", async () => patches() >= 2, 10_000);
    const oldPrimary = group.primary.port;
    await group.primary.kill();
    // No writable primary: every bot leaves the rotation at once (the connection closed).
    await Promise.all(
      replicas.map((r) => until(`${r.name} 503`, async () => (await readyz(r)) === 503, 5_000)),
    );
    // The other two are approved on every replica during the gap: refused with a clear try-again, nothing done.
    const gap = await Promise.all(
      cards.slice(2).flatMap((card) => replicas.map((r, j) => click(r, card, `UOPS${j + 1}`))),
    );
    for (const a of gap) expect(JSON.stringify(a)).toMatch(/Paused: the bot's shared state store \(Redis\)/);
    const answers = [...(await Promise.all(running)), ...gap];
    // Every click was answered: the change's card, "being carried out", or the try-again.
    expect(answers).toHaveLength(CHANGES.length * 3);
    for (const a of answers) expect(JSON.stringify(a)).toMatch(/Resized|being carried out|Paused/);

    // The promoted replica is the primary; every bot is ready again.
    await until(
      "the sentinels promote the replica",
      async () => (await group.currentPrimaryPort()) !== oldPrimary,
      30_000,
    );
    expect(await group.currentPrimaryPort()).toBe(group.replica.port);
    await Promise.all(replicas.map((r) => ready(r, 30_000)));
    sim.control.clearFaults();

    // Clicks answered "try again" are clicked again until every change is done; a change never runs twice.
    for (const [i, card] of cards.entries()) {
      const target = CHANGES[i]?.bytes;
      for (
        let attempt = 0;
        sim.state.fileSystems.get(CHANGES[i]?.fs ?? "")?.provisioned !== target;
        attempt++
      ) {
        expect(attempt).toBeLessThan(20);
        await click(replicas[attempt % 3] as Replica, card, `UOPS${4 + (attempt % 3)}`);
      }
    }
    await until("every execution finished", async () => patches() >= CHANGES.length, 20_000);
    for (const c of CHANGES) expect(sim.state.fileSystems.get(c.fs)?.provisioned).toBe(c.bytes);
    expect(patches()).toBe(CHANGES.length);
  }, 120_000);

  it("SIGSTOP of the primary mid-execution: the same, the old node back as a replica first", async () => {
    const { fake, sim } = world;
    // The node killed above comes back; the sentinels make it a replica of the promoted primary.
    await group.primary.start();
    await group.inSync(group.primary.port);
    for (const r of replicas) await ready(r, 10_000);
    const more = [
      { fs: "builds", size: "8T", bytes: 8 * TIB },
      { fs: "projects", size: "35T", bytes: 35 * TIB },
    ];
    const inC1 = (c: { args: Record<string, unknown> }) => c.args["channel"] === "C1";
    const cards: { ts: string; approve: { action_id: string; value: string } }[] = [];
    for (const [i, c] of more.entries()) {
      const before = fake.callsOf("chat.postMessage").filter(inC1).length;
      await replicas[i]?.driver.command(
        slashCommand({
          text: `fs resize ${c.fs} ${c.size}`,
          userId: "UBOB",
          responseUrl: fake.responseUrl(`stop-req-${i}`),
        }),
      );
      const card = await fake.waitForCall("chat.postMessage", inC1, before + 1);
      const ts = [...fake.messages.values()].filter((m) => m.channel === "C1").at(-1)?.ts ?? "";
      cards.push({ ts, approve: cardButton(card, "approve") });
    }
    const click = async (on: Replica, card: (typeof cards)[number], user: string) => {
      const id = `click-${++seq}`;
      await on.driver.interactive(
        blockAction({
          actionId: card.approve.action_id,
          value: card.approve.value,
          userId: user,
          messageTs: card.ts,
          responseUrl: fake.responseUrl(id),
        }),
      );
      return (await fake.waitForResponse((r) => r.id === id)).body;
    };
    const start = patches();
    sim.control.addLatency({ path: "/file-systems", method: "PATCH", ms: 4_000 });
    const first = cards[0] as (typeof cards)[number];
    const second = cards[1] as (typeof cards)[number];
    const running = replicas.map((r, j) => click(r, first, `UOPS${j + 1}`));
    await until("the PATCH reached the array", async () => patches() > start, 10_000);
    const hungPrimary = group.replica.port;
    group.replica.pause();
    const gap = await Promise.all(replicas.map((r, j) => click(r, second, `UOPS${j + 1}`)));
    for (const a of gap) expect(JSON.stringify(a)).toMatch(/Paused: the bot's shared state store \(Redis\)/);
    for (const a of await Promise.all(running))
      expect(JSON.stringify(a)).toMatch(/Resized|being carried out|Paused/);

    await until(
      "the sentinels promote the old node",
      async () => (await group.currentPrimaryPort()) !== hungPrimary,
      30_000,
    );
    await Promise.all(replicas.map((r) => ready(r, 30_000)));
    sim.control.clearFaults();
    for (const [i, card] of cards.entries()) {
      const target = more[i]?.bytes;
      for (let attempt = 0; sim.state.fileSystems.get(more[i]?.fs ?? "")?.provisioned !== target; attempt++) {
        expect(attempt).toBeLessThan(20);
        await click(replicas[attempt % 3] as Replica, card, `UOPS${4 + (attempt % 3)}`);
      }
    }
    for (const c of more) expect(sim.state.fileSystems.get(c.fs)?.provisioned).toBe(c.bytes);
    expect(patches() - start).toBe(more.length);
  }, 120_000);
});
