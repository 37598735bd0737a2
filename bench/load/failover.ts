/**
 * The load test's failover mode (`npm run load -- --failover`): the bot as several replicas sharing one Redis
 * through Sentinel (a primary, a replica, three sentinels: bench/redis/sentinel-group.ts), the primary SIGKILLed
 * mid-run and the replica promoted by the sentinels while the load goes on. What it measures besides the load's
 * own figures: from the kill to every replica ready again (/readyz 200 after it was 503), and what the approvals
 * clicked in that gap were answered.
 */
import type { EventEmitter } from "node:events";
import { setTimeout as delay } from "node:timers/promises";
import { MASTER_NAME, type SentinelGroup, startSentinelGroup } from "../redis/sentinel-group.js";
import { type Bot, type BotOptions, startBot } from "./bot.js";
import type { AuditEntry } from "./reconcile.js";

/** How long after the kill the replicas may take to be ready again before the run says they never were. */
const READY_WITHIN_MS = 60_000;
const PROBE_EVERY_MS = 50;

export interface FailoverReport {
  replicas: number;
  /** Seconds after sending started that the primary was SIGKILLed. */
  killedAtS: number;
  /** From the kill to the sentinels naming the promoted replica as primary. */
  promotedAfterMs: number;
  /** From the kill to each replica's first 503 on /readyz (undefined: never seen not ready). */
  notReadyAfterMs: (number | undefined)[];
  /** From the kill to each replica ready again (200 after its 503); undefined: not within 60 s. */
  readyAfterMs: (number | undefined)[];
  /** From the kill to every replica ready again; NaN: not within 60 s. */
  readyAgainAfterMs: number;
  /** What /readyz last answered on the replicas never ready again (status and body), to say why. */
  stillNotReady: string[];
  /** The promoted node is the one that was the replica. */
  promotedTheReplica: boolean;
  /** Approve clicks made between the kill and every replica ready again, by what they were answered. */
  gapApprovals: Record<string, number>;
  /** The held approvals' clicks among them (cards asked for before the kill, clicked once it happened). */
  heldGapApprovals: Record<string, number>;
  /** Held ones answered "try again", clicked again once every replica was ready: by what they were answered then. */
  againApprovals: Record<string, number>;
  /** Answers "Paused: the bot's shared state store (Redis) is unreachable … try again" over the whole run. */
  pausedAnswers: number;
}

/** One approve click: when (performance.now()) and what it was answered, as approval.ts records it. */
export interface ApproveClick {
  at: number;
  answer: string;
  /** A click again, once every replica was ready, of a held approval answered "try again" in the gap. */
  again?: boolean;
  /** A held approval's click (its card asked for before the kill); others may fall in the gap by chance. */
  held?: boolean;
}

/** The approvals clicked in [from, to], counted by answer. */
export function clicksBetween(
  clicks: readonly ApproveClick[],
  from: number,
  to: number,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of clicks)
    if (c.at >= from && c.at <= to && c.again !== true) out[c.answer] = (out[c.answer] ?? 0) + 1;
  return out;
}

/** What an answer says, in a few words: the approval's outcome for the failover figures. */
export function answerKind(body: unknown): string {
  const text = JSON.stringify(body ?? "");
  if (/Paused: the bot's shared state store/.test(text)) return "paused: try again";
  if (/being carried out|already/i.test(text)) return "already being carried out";
  const first = /"text":"([^"]{1,60})/.exec(text)?.[1];
  return first === undefined ? "other" : `other: ${first}`;
}

/** Several bots as one for the load: the memory figures are the first replica's, the audit entries all of theirs. */
export function replicaSet(bots: readonly Bot[]): Bot {
  const first = bots[0];
  if (first === undefined) throw new Error("a replica set needs at least one bot");
  return {
    port: first.port,
    start: async () => {
      await Promise.all(bots.map((b) => b.start()));
    },
    mark: () => first.mark(),
    snapshot: (path) => first.snapshot(path),
    drainAudit: () => bots.flatMap((b) => b.drainAudit()),
    async stop() {
      const all = await Promise.all(bots.map((b) => b.stop()));
      const entries: AuditEntry[] = all.flatMap((s) => s.entries);
      const head = all[0] ?? (await first.stop());
      return { ...head, entries };
    },
  };
}

type Gap = Omit<
  FailoverReport,
  "gapApprovals" | "heldGapApprovals" | "againApprovals" | "pausedAnswers" | "replicas"
>;

/** Approvals whose cards are asked for this long before the kill, and clicked just after it. */
export const HOLD_LEAD_MS = 3_000;
export const HELD_APPROVALS = 3;

export interface FailoverRun {
  group: SentinelGroup;
  bots: Bot[];
  /** The replicas' /slack/events URLs, taken in turn by the driver (a load balancer's round robin). */
  nextEventsUrl(): string;
  /** SIGKILLs the primary now and watches the replicas until all are ready again; `t0` is sending's start. */
  killPrimary(t0: number): void;
  /** Settles once the primary is killed, and once every replica is ready again (or the watch gave up). */
  killed: Promise<void>;
  ready: Promise<void>;
  /** Once sending has stopped: the figures, with the approvals among `clicks` made in the gap; none without a kill. */
  report(clicks: readonly ApproveClick[]): Promise<FailoverReport | undefined>;
}

/** Starts the Sentinel group and `replicas` bots on it. The caller closes the group after the bots stop. */
export async function startFailover(
  replicas: number,
  bot: BotOptions & { child?: boolean; heapOptions?: boolean },
  /** The fake Slack's answers: those saying "Paused … try again" are counted. */
  answers: EventEmitter,
): Promise<FailoverRun> {
  const group = await startSentinelGroup();
  const bots: Bot[] = [];
  try {
    for (let i = 0; i < replicas; i++)
      bots.push(
        await startBot({
          ...bot,
          store: { sentinels: group.sentinels, sentinelName: MASTER_NAME },
          replicaId: `load-r${i + 1}`,
        }),
      );
  } catch (err) {
    for (const b of bots) await b.stop().catch(() => undefined);
    await group.close();
    throw err;
  }
  let pausedAnswers = 0;
  let killed: Promise<Gap & { killedAt: number }> | undefined;
  let onKilled = () => {};
  let onReady = () => {};
  const killedSignal = new Promise<void>((r) => {
    onKilled = r;
  });
  const readySignal = new Promise<void>((r) => {
    onReady = r;
  });
  answers.on("response", (_id: string, body: unknown) => {
    if (answerKind(body) === "paused: try again") pausedAnswers++;
  });
  const urls = bots.map((b) => `http://127.0.0.1:${b.port}/slack/events`);
  let turn = 0;
  const readyz = async (b: Bot): Promise<{ status: number; body: string }> => {
    try {
      const res = await fetch(`http://127.0.0.1:${b.port}/readyz`, { signal: AbortSignal.timeout(2_000) });
      return { status: res.status, body: (await res.text()).slice(0, 300) };
    } catch (err) {
      return { status: 0, body: String(err) };
    }
  };
  return {
    group,
    bots,
    nextEventsUrl: () => urls[turn++ % urls.length] as string,
    killed: killedSignal,
    ready: readySignal,
    killPrimary(t0) {
      killed = watchKill(t0).finally(onReady);
    },
    async report(clicks) {
      const gap = await killed;
      if (gap === undefined) return undefined;
      const from = gap.killedAt;
      // Never ready again: the gap lasts to the end of the run.
      const to = Number.isNaN(gap.readyAgainAfterMs)
        ? Number.POSITIVE_INFINITY
        : from + gap.readyAgainAfterMs;
      const { killedAt: _, ...figures } = gap;
      const againApprovals: Record<string, number> = {};
      for (const c of clicks) if (c.again) againApprovals[c.answer] = (againApprovals[c.answer] ?? 0) + 1;
      return {
        ...figures,
        replicas: bots.length,
        gapApprovals: clicksBetween(clicks, from, to),
        heldGapApprovals: clicksBetween(
          clicks.filter((c) => c.held === true),
          from,
          to,
        ),
        againApprovals,
        pausedAnswers,
      };
    },
  };
  async function watchKill(t0: number): Promise<Gap & { killedAt: number }> {
    const oldPrimary = group.primary.port;
    const killedAt = performance.now();
    await group.primary.kill();
    onKilled();
    const since = () => performance.now() - killedAt;
    let promotedAfterMs = Number.NaN;
    const notReady: (number | undefined)[] = bots.map(() => undefined);
    const readyAt: (number | undefined)[] = bots.map(() => undefined);
    const last: string[] = bots.map(() => "");
    // Probed, not waited for by time: each replica's /readyz and the sentinels' answer every 50 ms, bounded. Until
    // the promotion is seen too: the replicas can all answer ready in the same round the sentinels first name the
    // new primary, and a watch that stopped there reported the promotion as never seen (NaN).
    while (
      since() < READY_WITHIN_MS &&
      (readyAt.some((r) => r === undefined) || Number.isNaN(promotedAfterMs))
    ) {
      if (
        Number.isNaN(promotedAfterMs) &&
        (await group.currentPrimaryPort().catch(() => oldPrimary)) !== oldPrimary
      )
        promotedAfterMs = since();
      const statuses = await Promise.all(bots.map(readyz));
      statuses.forEach(({ status: s, body }, i) => {
        last[i] = `${bots[i]?.port}: ${s} ${body}`;
        if (s !== 200 && notReady[i] === undefined) notReady[i] = since();
        // Ready again: 200 after it was seen not ready, or (never seen so) once the replica is promoted.
        const after = notReady[i] !== undefined || !Number.isNaN(promotedAfterMs);
        if (s === 200 && after && readyAt[i] === undefined) readyAt[i] = since();
      });
      await delay(PROBE_EVERY_MS);
    }
    const all = readyAt.every((r) => r !== undefined) ? Math.max(...(readyAt as number[])) : Number.NaN;
    return {
      killedAt,
      killedAtS: (killedAt - t0) / 1000,
      promotedAfterMs,
      notReadyAfterMs: notReady,
      readyAfterMs: readyAt,
      stillNotReady: last.filter((_, i) => readyAt[i] === undefined),
      readyAgainAfterMs: all,
      promotedTheReplica: (await group.currentPrimaryPort().catch(() => 0)) === group.replica.port,
    };
  }
}

/** A goal's verdict as the report prints it. */
const verdict = (met: boolean) => (met ? "met" : "**not met**");

/** The failover figures as `npm run load -- --failover` prints them, each goal met or **not met**. */
export function failoverLines(
  f: FailoverReport,
  r: { appliedTwice: number; lost: number; unreported: number; unanswered: number; approveP99Ms: number },
): string[] {
  const s = (ms: number | undefined) =>
    ms === undefined || Number.isNaN(ms) ? "never" : `${(ms / 1000).toFixed(1)} s`;
  const gap = Object.entries(f.gapApprovals);
  const again = Object.entries(f.againApprovals);
  return [
    `failover: ${f.replicas} replicas on Redis under Sentinel (a primary, a replica, 3 sentinels, quorum 2); primary SIGKILLed ${f.killedAtS.toFixed(1)} s into the run`,
    `  replica promoted by the sentinels after ${s(f.promotedAfterMs)}${f.promotedTheReplica ? "" : " (not the replica: another node)"}; each replica not ready (/readyz 503) after ${f.notReadyAfterMs.map(s).join(" / ")}`,
    `  from the kill to every replica ready again: ${s(f.readyAgainAfterMs)} (each: ${f.readyAfterMs.map(s).join(" / ")}; goal: all ready again within ${READY_WITHIN_MS / 1000} s: ${verdict(Number.isFinite(f.readyAgainAfterMs))})`,
    ...f.stillNotReady.map((l) => `  never ready again: /readyz of the replica on port ${l}`),
    `  approvals clicked during the gap: ${gap.length === 0 ? "none" : gap.map(([k, n]) => `${n} ${k}`).join(", ")}; clicked again once all were ready: ${again.length === 0 ? "none" : again.map(([k, n]) => `${n} ${k}`).join(", ")}; answers "Paused … try again" over the whole run: ${f.pausedAnswers}`,
    `  goals across the failover: applied twice ${r.appliedTwice} (= 0: ${verdict(r.appliedTwice === 0)}), lost ${r.lost} (= 0: ${verdict(r.lost === 0)}), applied but not reported ${r.unreported} (= 0: ${verdict(r.unreported === 0)}), unanswered ${r.unanswered} (= 0: ${verdict(r.unanswered === 0)}), approve p99 ${r.approveP99Ms.toFixed(0)} ms (< 1 s: ${verdict(r.approveP99Ms < 1000)})`,
  ];
}
