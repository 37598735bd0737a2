/**
 * Alert polling with three replicas on one Redis: one replica polls an array at a time (its lease), every alert
 * is posted once, a killed holder's array moves within one lease period with nothing missed or posted twice,
 * and a holder that paused past its lease can neither commit a poll nor post.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pollLeaseName } from "../../src/alerts/leadership.js";
import { raiseAlert } from "../../src/simulator/state-control.js";
import { currentLease } from "../../src/store/lease.js";
import type { PostedMessage } from "../fakes/slack-api-server.js";
import { type RunSlackWorld, startRunSlackWorld } from "../slack/helpers/run-slack.js";
import { type RedisServer, startRedis } from "../store/redis-server.js";
import {
  ALERTS_CHANNEL,
  type Replica,
  replicaConfig,
  SharedTime,
  settleLive,
  startReplica,
} from "./harness.js";

const TTL = 15_000;
const POLL = 30_000;

let world: RunSlackWorld;
let redis: RedisServer;
const replicas: Replica[] = [];
const time = new SharedTime();
let code = 7000;

beforeAll(async () => {
  world = await startRunSlackWorld();
  redis = await startRedis({ persistence: true });
  const loaded = replicaConfig(world, redis);
  for (const name of ["r1", "r2", "r3"]) replicas.push(await startReplica(name, loaded, time));
  time.settle = settleLive(() => replicas);
});

afterAll(async () => {
  for (const r of replicas) await r.stop();
  await redis?.close();
  await world?.close();
});

/** Alert messages Slack accepted (top level, in the alerts channel). */
const alertPosts = (): PostedMessage[] =>
  [...world.fake.messages.values()].filter((m) => m.channel === ALERTS_CHANNEL && m.threadTs === undefined);
const postsAbout = (subject: string) => alertPosts().filter((m) => JSON.stringify(m).includes(subject));

function raise(subject: string): void {
  raiseAlert(world.sim.state, { code: ++code, severity: "critical", component: `CH1.FB${code}`, subject });
}

async function holder(): Promise<{ replica: Replica; fence: number; expiresAt: number }> {
  const live = replicas.find((r) => r.clock.live) as Replica;
  const lease = await currentLease(live.store(), pollLeaseName("lab-1"), time.clock.now());
  const replica = replicas.find((r) => r.name === lease?.owner);
  if (!lease || !replica) throw new Error("nobody holds the polling lease of lab-1");
  return { replica, fence: lease.fence, expiresAt: lease.expiresAt };
}

/** No two alert messages say the same thing: nothing was posted twice. */
function expectNoDuplicatePosts(): void {
  const texts = alertPosts().map((m) => m.history[0]?.text ?? m.text);
  expect(new Set(texts).size).toBe(texts.length);
}

describe("alert polling across three replicas on Redis", () => {
  it("posts each alert once with three replicas polling; only the lease holder polls", async () => {
    await time.advance(0);
    raise("Blade CH1.FB1 fan failed");
    raise("Blade CH1.FB2 power supply failed");
    await time.advance(2 * POLL);
    const h = await holder();
    expect(h.fence).toBe(1);
    expect(postsAbout("fan failed")).toHaveLength(1);
    expect(postsAbout("power supply failed")).toHaveLength(1);
    expectNoDuplicatePosts();
    // Renewals kept the one holder; the others never polled.
    expect(h.replica.engine().stats().polls).toBeGreaterThan(0);
    for (const r of replicas.filter((x) => x !== h.replica)) expect(r.engine().stats().polls).toBe(0);
    const metrics = await (await fetch(`${h.replica.app.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/^array_chatops_lease_changes_total\{lease="poll",change="acquired"\} 1$/m);
  });

  it("killing the holder moves polling to another replica within one lease period, missing and repeating nothing", async () => {
    const before = alertPosts().length;
    const old = await holder();
    const killedAt = time.clock.now();
    await old.replica.kill();
    raise("Blade CH1.FB3 overheated");
    // One lease period after the kill, at the latest, another replica holds the array and has polled it.
    await time.advanceTo(killedAt + TTL);
    const next = await holder();
    expect(next.replica).not.toBe(old.replica);
    expect(next.fence).toBe(old.fence + 1);
    expect(next.expiresAt - TTL).toBeLessThanOrEqual(killedAt + TTL);
    expect(postsAbout("overheated")).toHaveLength(1);
    expect(alertPosts().length).toBe(before + 1);
    await time.advance(2 * POLL);
    expect(alertPosts().length).toBe(before + 1);
    expectNoDuplicatePosts();
  });

  it("a holder paused past its lease can neither commit its poll nor post; its successor posts once", async () => {
    const paused = await holder();
    paused.replica.clock.pause();
    // The successor's first post of the next alert fails (an error the client does not retry itself), so its
    // card waits in the shared outbox for the notifier's next try.
    world.fake.script("chat.postMessage", { error: "ekm_access_denied" });
    raise("Blade CH1.FB4 lost its network link");
    await time.advanceTo(paused.expiresAt + 1);
    const successor = await holder();
    expect(successor.replica).not.toBe(paused.replica);
    expect(postsAbout("lost its network link")).toHaveLength(0);

    // The paused replica wakes up believing it still holds the lease (its clock stopped before the expiry).
    const stale = paused.replica.engine();
    raise("Blade CH1.FB5 disk stalled");
    const report = await stale.pollNow("lab-1");
    expect(report.mode).toBe("fenced");
    await stale.flush();
    expect(postsAbout("lost its network link")).toHaveLength(0);
    expect(postsAbout("disk stalled")).toHaveLength(0);

    paused.replica.clock.resume();
    await time.advance(2 * POLL);
    expect(postsAbout("lost its network link")).toHaveLength(1);
    expect(postsAbout("disk stalled")).toHaveLength(1);
    expectNoDuplicatePosts();
    expect((await holder()).replica).toBe(successor.replica);
  });

  it("while Redis is down alert posting pauses; when it returns every alert is posted once", async () => {
    const live = replicas.filter((r) => r.clock.live);
    const before = alertPosts().length;
    const downs = live.map((r) => r.nextStoreDown());
    await redis.kill();
    await Promise.all(downs);
    raise("Blade CH1.FB6 fabric module failed");
    await time.advance(2 * POLL);
    expect(postsAbout("fabric module failed")).toHaveLength(0);
    const ups = live.map((r) => r.nextStoreUp());
    await redis.start();
    await Promise.all(ups);
    await time.advance(2 * POLL);
    expect(postsAbout("fabric module failed")).toHaveLength(1);
    expect(alertPosts().length).toBe(before + 1);
    expectNoDuplicatePosts();
  });
});
