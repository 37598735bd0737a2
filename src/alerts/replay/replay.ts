/**
 * Replays the lab alert fixture through the simulator and the real engine in compressed time: events are
 * applied through the simulator's alert control at their own timestamps, and the engine polls on the 30 s
 * grid, but only at the grid points where something happened (an idle poll reads nothing, so skipping them
 * changes no outcome and turns three years into seconds).
 */
import { type AlertsConfigInput, defaultAlertsConfig } from "../../config/alerts.js";
import { Secret } from "../../config/secret.js";
import { createArrayPool } from "../../flashblade/pool.js";
import { type Logger, silentLogger } from "../../logger.js";
import { startSimulator } from "../../simulator/index.js";
import { closeAlert, raiseAlert, updateAlert } from "../../simulator/state-control.js";
import { selfSignedCertificate } from "../../simulator/tls.js";
import { createMemoryStore } from "../../store/memory.js";
import { alertKey, isClosed } from "../alert-model.js";
import { createAlertEngine, type EngineStats } from "../engine.js";
import { ManualClock } from "../manual-clock.js";
import { poolAlertSource } from "../pool-source.js";
import { NS } from "../repo.js";
import type { AlertRecord, Card } from "../types.js";
import { type LabAlert, labEvents } from "./lab-data.js";
import { RecordingChat } from "./recording-chat.js";

export const REPLAY_ARRAY = "lab-fb";
export const REPLAY_CHANNELS = { oncall: "CONCALL00", storage: "CSTORAGE0" } as const;
const TOKEN = "T-replay";

export interface FamilyMessages {
  channel: string;
  family: string;
  /** Alerts of the family in the fixture. */
  alerts: number;
  /** Top-level messages that showed them. */
  messages: number;
}

export interface ReplayReport {
  alerts: number;
  events: number;
  polls: number;
  /** Top-level messages posted (alert cards + storm summaries + reachability). */
  posts: number;
  updates: number;
  threadLines: number;
  stormSummaries: number;
  alertsInSummaries: number;
  /** Opened alerts that joined their family's existing message instead of a new one. */
  collapsedReopenings: number;
  /** Alerts that opened and closed between two polls (recorded, not posted). */
  closedBeforeSeen: number;
  /** Per channel and family, worst first. */
  families: FamilyMessages[];
  openAtEnd: number;
  /** Alerts open at the end whose message in some routed channel does not show them open. */
  openNotVisible: number[];
  engine: EngineStats;
  wallMs: number;
}

export interface ReplayOptions {
  alerts: readonly LabAlert[];
  config?: AlertsConfigInput;
  logger?: Logger;
}

export async function runReplay(o: ReplayOptions): Promise<ReplayReport> {
  const started = performance.now();
  const logger = o.logger ?? silentLogger();
  const config = defaultAlertsConfig({
    routes: [
      { name: "critical", min_severity: "critical", channels: [REPLAY_CHANNELS.oncall] },
      { name: "everything", channels: [REPLAY_CHANNELS.storage] },
    ],
    // The report counts messages from the cards in the store, so none may be forgotten during the replay.
    // (Forgetting never changes what is posted: only families idle for longer than the flap window go.)
    retention: "36500d",
    ...o.config,
  });
  const events = labEvents(o.alerts);
  const interval = config.poll_interval;
  const t0 = (events[0]?.at ?? Date.now()) - interval;
  const clock = new ManualClock(t0);
  const sim = await startSimulator({
    tls: await selfSignedCertificate(),
    apiTokens: [{ token: TOKEN, username: "pureuser" }],
    scenario: "empty",
    arrayName: REPLAY_ARRAY,
    clock: clock.now,
    sleep: async () => {},
  });
  const pool = createArrayPool(
    [
      {
        name: REPLAY_ARRAY,
        origin: sim.url,
        ca: sim.ca,
        apiToken: new Secret(TOKEN),
        insecure: false,
        tags: ["lab"],
        connections: 2,
        rate: { maxConcurrent: 4, minSpacingMs: 0, maxQueue: 1000 },
        timeouts: { connectMs: 5000, readMs: 30_000 },
        downAfterFailures: 3,
      },
    ],
    { logger, now: clock.now, sleep: async () => {} },
  );
  const store = createMemoryStore({ now: clock.now });
  const chat = new RecordingChat();
  const engine = createAlertEngine({
    config,
    source: poolAlertSource(pool),
    chat,
    store,
    authorizer: { allowed: async () => false },
    clock,
    random: () => 0.5,
    logger,
  });
  const settle = () => engine.idle();
  const simIndex = new Map<number, number>();
  let polls = 0;
  const poll = async () => {
    await engine.pollNow(REPLAY_ARRAY);
    await engine.idle();
    polls += 1;
  };

  try {
    await poll();
    let i = 0;
    while (i < events.length) {
      const first = events[i];
      if (!first) break;
      // The grid point at or after this event: everything up to it is seen by that one poll.
      const tick = t0 + Math.ceil((first.at - t0) / interval) * interval;
      while (i < events.length && (events[i]?.at ?? Number.POSITIVE_INFINITY) <= tick) {
        const e = events[i] as (typeof events)[number];
        await clock.advanceTo(e.at, settle);
        apply(e);
        i += 1;
      }
      await clock.advanceTo(tick, settle);
      await poll();
    }
    await clock.advance(interval, settle);
    await poll();
    await engine.flush();
    return await report();
  } finally {
    await engine.stop();
    await pool.close();
    await sim.close();
  }

  function apply(e: (typeof events)[number]): void {
    const a = e.alert;
    if (e.kind === "open") {
      const rec = raiseAlert(sim.state, {
        code: a.code,
        severity: a.severity,
        component: a.component,
        subject: a.subject,
        description: a.description,
        action: a.action,
        variables: a.variables,
        flagged: a.flagged,
        created: a.created,
        ...(a.knowledgeBaseUrl ? { knowledge_base_url: a.knowledgeBaseUrl } : {}),
      });
      simIndex.set(a.index, rec.index);
      return;
    }
    const idx = simIndex.get(a.index);
    if (idx === undefined) return;
    if (e.kind === "close") closeAlert(sim.state, idx);
    else updateAlert(sim.state, idx, { state: "closing" });
  }

  async function report(): Promise<ReplayReport> {
    const cards = (await store.list<Card>(NS.card)).map((e) => e.value).filter((c) => c.ref && !c.dropped);
    const records = new Map((await store.list<AlertRecord>(NS.alert)).map((e) => [e.key, e.value]));
    const familyOf = new Map<string, string>();
    const familySize = new Map<string, number>();
    for (const a of o.alerts) {
      const fam = `${a.code}/${a.component}`;
      familySize.set(fam, (familySize.get(fam) ?? 0) + 1);
      const idx = simIndex.get(a.index);
      if (idx !== undefined) familyOf.set(alertKey(REPLAY_ARRAY, String(idx)), fam);
    }
    const perFamily = new Map<string, Set<string>>();
    for (const c of cards) {
      for (const m of c.members) {
        const fam = familyOf.get(m);
        if (!fam) continue;
        const k = `${c.channel}|${fam}`;
        const set = perFamily.get(k) ?? new Set<string>();
        set.add(c.id);
        perFamily.set(k, set);
      }
    }
    const families: FamilyMessages[] = [...perFamily].map(([k, set]) => {
      const [channel = "", family = ""] = k.split("|");
      return { channel, family, alerts: familySize.get(family) ?? 0, messages: set.size };
    });
    families.sort((x, y) => y.messages - x.messages || y.alerts - x.alerts);

    const open = o.alerts.filter((a) => a.finalState !== "closed");
    const notVisible: number[] = [];
    for (const a of open) {
      const key = alertKey(REPLAY_ARRAY, String(simIndex.get(a.index)));
      const rec = records.get(key);
      if (!rec || isClosed(rec) || !visible(rec, cards)) notVisible.push(a.index);
    }
    const stats = engine.stats();
    return {
      alerts: o.alerts.length,
      events: events.length,
      polls,
      posts: chat.posts,
      updates: chat.updates,
      threadLines: chat.threadLines,
      stormSummaries: stats.summaries,
      alertsInSummaries: stats.summarised,
      collapsedReopenings: stats.collapsed,
      closedBeforeSeen: stats.seenClosed,
      families,
      openAtEnd: open.length,
      openNotVisible: notVisible,
      engine: stats,
      wallMs: Math.round(performance.now() - started),
    };
  }

  /** Shown open in every channel that has it: the card's current message names the alert and is not resolved. */
  function visible(rec: AlertRecord, cards: readonly Card[]): boolean {
    const mine = cards.filter((c) => rec.cardIds.includes(c.id));
    if (mine.length === 0) return false;
    return mine.every((c) => {
      const m = c.ref ? chat.get(c.ref) : undefined;
      if (!m || m.message.text.includes("Resolved") || m.message.text.includes("all closed")) return false;
      const shown = JSON.stringify(m.message.blocks);
      return (
        m.message.text.includes(`(alert ${rec.index})`) ||
        new RegExp(`Also open: alert [0-9, ]*\\b${rec.index}\\b`).test(shown) ||
        shown.includes(`"alert":"${rec.index}"`)
      );
    });
  }
}
