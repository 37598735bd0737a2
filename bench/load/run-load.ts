/**
 * The load test's engine: many simulated arrays with injected faults, the real Slack app in HTTP mode with the
 * real pipeline and array pool, and a driver sending signed commands and clicks at a fixed rate from many users
 * (reads, creates, confirmed destroys with double clicks, approved eradications with double submits). At the
 * end it reconciles what the arrays did with the bot's audit records (reconcile.ts).
 */
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { ACTIONS } from "../../src/core/context/pipeline-deps.js";
import { approvals } from "./approval.js";
import { breakdown } from "./approve-trace.js";
import { type BotOptions, startBot } from "./bot.js";
import { type ApproveClick, HELD_APPROVALS, HOLD_LEAD_MS, replicaSet, startFailover } from "./failover.js";
import { memoryReport, pcts, rng } from "./figures.js";
import { type FleetFileSystems, startFleet } from "./fleet.js";
import type { Kind, LoadOptions, LoadReport } from "./load-types.js";
import { reconcile } from "./reconcile.js";
import { buttonValue, slackDriver } from "./slack-driver.js";
import { SlackStub } from "./slack-stub.js";

export type { Kind, LoadOptions, LoadReport } from "./load-types.js";

const SECRET = "load-signing-secret-000000";
/** One approved eradication every 2 s: under Slack's chat.update limit, which the bot paces to. */
const APPROVAL_EVERY_MS = 2000;

export async function runLoad(o: LoadOptions): Promise<LoadReport> {
  // The Sentinel group's processes end with the run, whichever way it ends.
  const group = { close: async () => {} };
  try {
    return await drive(o, (close) => Object.assign(group, { close }));
  } finally {
    await group.close();
  }
}

async function drive(o: LoadOptions, onGroup: (close: () => Promise<void>) => void): Promise<LoadReport> {
  const log = o.log ?? (() => {});
  const random = rng(o.seed ?? 42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const started = performance.now();

  const fleet = await startFleet({
    arrays: o.arrays,
    faults: o.faults,
    child: o.fleetInChild === true,
    ...(o.eradicateAfterMs === undefined ? {} : { eradicateAfterMs: o.eradicateAfterMs }),
  });
  const names = fleet.arrays.map((a) => a.name);
  const admins = Array.from({ length: Math.max(2, Math.ceil(o.users / 4)) }, (_, i) => `UADM${i}`);
  const operators = Array.from({ length: Math.max(1, o.users - admins.length) }, (_, i) => `UOPS${i}`);
  const down = fleet.down;

  const stub = await SlackStub.start({ rate429: o.faults ? 0.05 : 0, random });
  const botOptions: BotOptions & { child: boolean; heapOptions: boolean } = {
    arrays: fleet.arrays,
    admins,
    operators,
    signingSecret: SECRET,
    slackApiUrl: stub.apiUrl,
    child: o.botInChild !== false,
    heapOptions: o.heapOptions !== false,
    ...(o.pending === "sqlite" ? { pending: "sqlite" as const } : {}),
  };
  const failover = o.failover ? await startFailover(o.failover.replicas, botOptions, stub.events) : undefined;
  if (failover) onGroup(() => failover.group.close());
  const bot = failover ? replicaSet(failover.bots) : await startBot(botOptions);
  const events = failover ? failover.nextEventsUrl : `http://127.0.0.1:${bot.port}/slack/events`;
  log(
    `${o.arrays} arrays, ${failover ? `${failover.bots.length} replicas on Redis under Sentinel` : `bot on port ${bot.port}`}${down ? `, ${down} down` : ""}`,
  );

  const slack = slackDriver(stub, events, SECRET);
  const { command, click } = slack;

  const sent: Record<Kind, number> = { read: 0, create: 0, destroy: 0, confirm: 0, eradicate: 0, approve: 0 };
  const lat: Record<Kind, number[]> = {
    read: [],
    create: [],
    destroy: [],
    confirm: [],
    eradicate: [],
    approve: [],
  };
  const timed = async <T>(kind: Kind, f: () => Promise<T>): Promise<T> => {
    sent[kind]++;
    const t0 = performance.now();
    const r = await f();
    lat[kind].push(performance.now() - t0);
    return r;
  };
  /** What the bot should have sent long ago: a missing one is a failure of the run, not a hang. */
  const within = <T>(p: Promise<T>, what: string): Promise<T> =>
    Promise.race([
      p,
      delay(20_000).then(() => {
        throw new Error(`no ${what} within 20 s`);
      }),
    ]);
  const created: { array: string; name: string }[] = [];
  const destroyed: { array: string; name: string; at: number }[] = [];
  // Creates (27 %) outnumber destroys (23 %), so the arrays fill over the run; a steady fleet balances them.
  const createBelow = o.eradicateAfterMs === undefined ? 0.77 : 0.75;
  /** With a steady fleet, what the arrays will soon eradicate themselves is no longer offered for approval. */
  const forgetSoonEradicated = () => {
    if (o.eradicateAfterMs === undefined) return;
    const cutoff = performance.now() - o.eradicateAfterMs / 2;
    while ((destroyed[0]?.at ?? cutoff) < cutoff) destroyed.shift();
  };
  let fsSeq = 0;

  let lastApproval = 0;
  const clicks: ApproveClick[] = [];
  const approvalFlow = approvals({ stub, slack, random, pick, admins, destroyed, timed, within, clicks });
  const { approval, steps: approveSteps } = approvalFlow;

  const op = async (): Promise<void> => {
    const r = random();
    const live = names.filter((n) => n !== down);
    // Approvals are paced below Slack's own limits (chat.update is Tier 3: 50 a minute per workspace), which
    // the bot's paced client honours: more would measure Slack's rate limits, not the bot.
    forgetSoonEradicated();
    const approvalDue = destroyed.length > 0 && performance.now() - lastApproval >= APPROVAL_EVERY_MS;
    if (approvalDue) {
      lastApproval = performance.now();
      await approval();
    } else if (r < 0.5) {
      const array = pick(names);
      const text = pick([
        `fs list --array ${array}`,
        `space --array ${array}`,
        `fs show home --array ${array}`,
      ]);
      await timed("read", () => command(pick(operators), text));
    } else if (r < createBelow || created.length === 0) {
      const array = pick(live);
      const name = `ld-${++fsSeq}`;
      const body = await timed("create", () =>
        command(pick(operators), `fs create ${name} 1T --nfs --array ${array}`),
      );
      if (String(body["response_type"]) === "in_channel") created.push({ array, name });
    } else {
      const target = created.splice(Math.floor(random() * created.length), 1)[0];
      if (!target) return;
      const user = pick(operators);
      const prompt = await timed("destroy", () =>
        command(user, `fs destroy ${target.name} --array ${target.array}`),
      );
      const pending = buttonValue(prompt, ACTIONS.confirm);
      if (!pending) return;
      // A third of confirmations are double clicks: two deliveries at once.
      const clicks = random() < 0.33 ? 2 : 1;
      const results = await timed("confirm", () =>
        Promise.all(Array.from({ length: clicks }, () => click(user, ACTIONS.confirm, pending, "1.1", true))),
      );
      if (results.some((b) => JSON.stringify(b).includes("Done: destroy")))
        destroyed.push({ ...target, at: performance.now() });
    }
  };

  // Drive: one operation every 1/rate seconds for `seconds`; operations overlap freely.
  const inflight = new Set<Promise<void>>();
  const failures: string[] = [];
  const interval = 1000 / o.rate;
  const t0 = performance.now();
  let warm = false;
  const fileSystemsAtMarks: FleetFileSystems[] = [];
  const mark = async () => {
    await bot.mark();
    fileSystemsAtMarks.push(await fleet.fileSystems());
  };
  await bot.start();
  let half = false;
  let held = false;
  // Settled once each held approval has its card (or ended without one): the kill waits for them.
  const heldArmed: Promise<void>[] = [];
  // The held approvals themselves: each clicks again once every replica is ready, however long that took (each
  // wait is bounded: the card's and the answers' by `within`, readiness by the failover watch's 60 s).
  const heldDone: Promise<void>[] = [];
  // Faults during the run: session expiry, 5xx bursts and connection resets on any method, round robin.
  await fleet.startFaults();
  /** An operation in flight until it settles; its failure is the run's. */
  const track = (work: Promise<void>) => {
    const p = work.catch((err: unknown) => {
      failures.push(String(err));
    });
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
  };
  const killing = failover && o.failover?.kill !== false ? failover : undefined;
  // A few approvals get their cards just before the kill and are clicked in the gap (failover.ts).
  const holdApprovals = (f: NonNullable<typeof killing>) => {
    held = true;
    for (let k = 0; k < HELD_APPROVALS; k++) {
      let armed = () => {};
      heldArmed.push(
        new Promise<void>((r) => {
          armed = r;
        }),
      );
      const one = approval({ until: f.killed, again: f.ready, armed });
      heldDone.push(one.catch(() => undefined));
      track(one);
    }
  };
  // At half time, or later if a held approval's card is still coming: killed before the cards were in hand, the
  // approvals are refused at the command and none is clicked in the gap (seen on a loaded machine). The 30 s are
  // a bound on a command never answered (a failure the run reports), not a wait for anything expected.
  let killed: Promise<void> | undefined;
  const killAtHalf = (f: NonNullable<typeof killing>) => {
    killed = Promise.race([Promise.all(heldArmed), delay(30_000, undefined, { ref: false })]).then(() => {
      log("SIGKILL to the Redis primary");
      f.killPrimary(t0);
    });
  };
  for (let i = 0; performance.now() - t0 < o.seconds * 1000; i++) {
    track(op());
    if (!warm && performance.now() - t0 > Math.min(120_000, (o.seconds * 1000) / 3)) {
      warm = true;
      await mark();
      if (o.heapSnapshotDir)
        log(`heap snapshot: ${await bot.snapshot(join(o.heapSnapshotDir, "warm.heapsnapshot"))}`);
    }
    if (killing && !held && performance.now() - t0 > (o.seconds * 1000) / 2 - HOLD_LEAD_MS)
      holdApprovals(killing);
    if (!half && performance.now() - t0 > (o.seconds * 1000) / 2) {
      half = true;
      if (killing) killAtHalf(killing);
      await mark();
    }
    const next = t0 + (i + 1) * interval;
    await delay(Math.max(0, next - performance.now()));
  }
  // A machine so loaded that sending ended before half time (the warm-up mark took that long) still kills.
  if (killing && !held) holdApprovals(killing);
  if (killing && !half) killAtHalf(killing);
  await killed;
  await mark();
  await fleet.stopFaults();
  log(`sending stopped; waiting for ${inflight.size} operations in flight`);
  await Promise.race([Promise.all(inflight), delay(o.drainMs ?? 60_000)]);
  // Counted once the held approvals have ended: a second click after a slow recovery is still part of the run.
  await Promise.all(heldDone);
  const unanswered = slack.pending().waiting;
  const failoverReport = await failover?.report(clicks);
  if (o.heapSnapshotDir)
    log(`heap snapshot: ${await bot.snapshot(join(o.heapSnapshotDir, "end.heapsnapshot"))}`);

  const stopped = await bot.stop();
  await stub.close();
  const reconciliation = reconcile(await fleet.effects(), stopped.entries, failures);
  const live = stopped.memory.liveHeapMiB;
  const fleetRss = o.fleetInChild === true ? (await fleet.memory()).rss / 2 ** 20 : undefined;
  await fleet.close();

  const latencyMs = Object.fromEntries(
    Object.entries(lat).map(([k, xs]) => [k, pcts(xs)]),
  ) as LoadReport["latencyMs"];
  return {
    sent,
    answered: slack.answered(),
    unanswered,
    latencyMs,
    reconciliation,
    slack429: stub.throttled,
    slack429ByMethod: Object.fromEntries(stub.throttledBy),
    approvalsNotCarriedOut: approvalFlow.notCarriedOut(),
    approveStepsMs: {
      inCard: pcts(approveSteps.inCard),
      dialog: pcts(approveSteps.dialog),
      carriedOut: pcts(approveSteps.carriedOut),
      unthrottled: pcts(approveSteps.unthrottled),
    },
    ...(stopped.trace
      ? {
          approveBreakdown: breakdown(approveSteps.traced, stopped.trace.deletes, stopped.trace.loopDelayMs),
        }
      : {}),
    pendingRecords: stopped.pendingRecords,
    leftListening: { stubWaits: stub.waits, ...slack.pending() },
    memory: {
      ...memoryReport(stopped.memory.samples, o.seconds),
      ...(stopped.memory.spaces ? { spaces: stopped.memory.spaces } : {}),
      ...(live.length === 3
        ? { liveHeapMiB: { warm: live[0] ?? 0, half: live[1] ?? 0, end: live[2] ?? 0 } }
        : {}),
      scope: o.botInChild !== false ? "bot" : "bot, driver and fake Slack",
    },
    ...(fleetRss === undefined ? {} : { fleetRssMiB: fleetRss }),
    fileSystemsAtMarks,
    wallSeconds: (performance.now() - started) / 1000,
    ...(failoverReport ? { failover: failoverReport } : {}),
  };
}
