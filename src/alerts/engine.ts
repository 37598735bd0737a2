/**
 * The alert engine: one poller per array (each in its own slot of the interval, bounded concurrency), the planner, the
 * reachability tracker and the notifier, over the durable store. Built from ports, so tests and the replay
 * run it in-process with an injected clock and the composition root runs it against the pool and Slack.
 */

import type { AlertsConfig } from "../config/alerts.js";
import type { AlertCommandPort } from "../core/context/alert-port.js";
import type { ClickInput, Effect } from "../core/context/pipeline-types.js";
import { errorCode } from "../errors.js";
import { type Logger, silentLogger } from "../logger.js";
import { keyPrefix } from "../store/keys.js";
import type { Store } from "../store/types.js";
import { handleAlertClick, isAlertAction } from "./actions.js";
import { isClosed } from "./alert-model.js";
import { readWindows, settleWindows, windowHolds, windowsNeeded } from "./array-maintenance.js";
import { forecastCheck } from "./capacity-rule.js";
import { certificateCheck } from "./certificate-rule.js";
import { systemClock } from "./clock.js";
import { commandPort } from "./command-port.js";
import { createDeliveryPolicy } from "./delivery.js";
import { type FetchMode, failureReason, readArray } from "./fetch.js";
import { Leadership, type LeaseChange } from "./leadership.js";
import { Mutex, pollGate } from "./mutex.js";
import { Notifier, type NotifierStats } from "./notifier.js";
import { emptyOutcome, type PlanContext, type PollOutcome, planPoll } from "./planner.js";
import { pruneArray } from "./prune.js";
import { recordPollFailure, recordPollSuccess } from "./reachability.js";
import { NS, UnitOfWork } from "./repo.js";
import { createRouter, type Router } from "./router.js";
import { SharedMutex } from "./shared-mutex.js";
import { PollSpread } from "./spread.js";
import type {
  AlertAuthorizer,
  AlertChat,
  AlertRecord,
  AlertSource,
  ArrayTarget,
  Clock,
  FollowUpRunner,
  TimerHandle,
} from "./types.js";

export interface AlertEngineDeps {
  config: AlertsConfig;
  /** IANA zone for times in messages and for quiet hours. */
  timeZone?: string;
  source: AlertSource;
  chat: AlertChat;
  store: Store;
  authorizer: AlertAuthorizer;
  followUps?: FollowUpRunner;
  clock?: Clock;
  /** [0, 1); injected so jitter is deterministic in tests. */
  random?: () => number;
  logger?: Logger;
  /**
   * Several replicas on one shared store: each array is polled, and its cards posted, only by the replica
   * holding its lease (leadership.ts). Without it this process polls every array.
   */
  leases?: { owner: string; ttlMs: number; onChange?: (array: string, change: LeaseChange) => void };
}

export interface PollReport extends PollOutcome {
  array: string;
  /** "standby": another replica holds this array's lease; "fenced": the lease was lost before the commit. */
  mode: FetchMode | "probe" | "failed" | "standby" | "fenced";
  /** Reachability cards raised / resolved by this poll. */
  unreachable: number;
  reachable: number;
  /** Closed alerts forgotten after `retention`. */
  pruned: number;
}

export interface EngineStats extends PollOutcome, NotifierStats {
  polls: number;
  failedPolls: number;
  unreachable: number;
  reachable: number;
}

export interface AlertEngine {
  readonly router: Router;
  /** What `/array alert …` commands use (`ctx.alerts`). */
  readonly commands: AlertCommandPort;
  /** The engine owns every button whose action id starts with "alert." (a ClickRoute for the Slack layer). */
  matches(actionId: string): boolean;
  /** Gives each array its slot of the interval (spread.ts) and polls it there, interval after interval. */
  start(): void;
  /** Stops scheduling, waits for running polls and deliveries. */
  stop(): Promise<void>;
  /** Polls one array now (tests, the replay, `alert` commands that refresh). */
  pollNow(array: string): Promise<PollReport>;
  /** The polling leases, when replicas share the store. */
  readonly leadership: Leadership | undefined;
  /** Resolves when no poll or delivery is running. */
  idle(): Promise<void>;
  /** Delivers whatever is due now (after a restart, or when a test moved time). */
  flush(): Promise<void>;
  handleClick(input: ClickInput): Promise<Effect[]>;
  /** Alerts the engine holds for `array` (all arrays when undefined). */
  alerts(array?: string): Promise<AlertRecord[]>;
  stats(): EngineStats;
}

function addOutcome(into: PollOutcome, more: PollOutcome): void {
  for (const k of Object.keys(more) as (keyof PollOutcome)[]) into[k] += more[k];
}

export function createAlertEngine(deps: AlertEngineDeps): AlertEngine {
  const cfg = deps.config;
  const clock = deps.clock ?? systemClock();
  const random = deps.random ?? Math.random;
  const logger = (deps.logger ?? silentLogger()).child({ component: "alerts" });
  const timeZone = deps.timeZone ?? "UTC";
  const store = deps.store;
  // With replicas, clicks on any replica and the lease holder's polls share one lock in the store.
  const lock = deps.leases ? new SharedMutex(store, deps.leases.owner, clock.now) : new Mutex();
  const router = createRouter(cfg);
  const timers = new Map<string, TimerHandle>();
  const leadership = deps.leases
    ? new Leadership({
        ...deps.leases,
        store,
        clock,
        logger,
        arrays: () => deps.source.arrays().map((a) => a.name),
        onChange: (array, change) => {
          deps.leases?.onChange?.(array, change);
          // Just taken over: poll at once, so the gap a dead holder left is no longer than its lease.
          if (change === "acquired" && started) schedule(targetOf(array), 0);
        },
        onTick: () => notifier.kick(),
      })
    : undefined;
  const delivery = createDeliveryPolicy(cfg, timeZone);
  const notifier = new Notifier({
    store,
    chat: deps.chat,
    clock,
    logger,
    lock,
    ...(leadership
      ? {
          owns: (array: string) => leadership.holds(array) !== undefined,
          confirm: (array: string) => leadership.confirm(array),
        }
      : {}),
    env: () => ({
      timeZone,
      flap: cfg.flap,
      snoozePresets: cfg.snooze_presets,
      stormThreshold: cfg.storm_threshold,
    }),
  });
  const totals = { ...emptyOutcome(), polls: 0, failedPolls: 0, unreachable: 0, reachable: 0 };
  const running = new Set<Promise<unknown>>();
  // The array limiter's slot hand-over, so a poll starting while a waiter is being woken cannot overtake it.
  const gate = pollGate(cfg.max_concurrent_polls);
  let started = false;
  // Each array's slot in the interval (spread.ts), fixed at start.
  let spread: PollSpread | undefined;
  const forecastAlert = forecastCheck({ cfg, source: deps.source, store, clock });
  const certificateAlerts = certificateCheck({ cfg, source: deps.source, store, clock });

  // Arrays whose own maintenance windows held alerts not yet settled (array-maintenance.ts).
  const windowed = new Set<string>();
  // Arrays whose windows this process has read at least once (after a start or a lease move, the first poll reads).
  const windowsLooked = new Set<string>();

  const targetOf = (name: string): ArrayTarget =>
    deps.source.arrays().find((a) => a.name === name) ?? { name, tags: [] };

  const planCtx = (): PlanContext => ({ cfg, router, delivery, now: clock.now() });

  async function knownOpen(array: string): Promise<AlertRecord[]> {
    const all = await store.list<AlertRecord>(NS.alert, { prefix: keyPrefix(array) });
    return all.map((e) => e.value).filter((r) => !isClosed(r));
  }

  async function poll(target: ArrayTarget): Promise<PollReport> {
    const array = target.name;
    const log = logger.child({ array });
    const report: PollReport = {
      ...emptyOutcome(),
      array,
      mode: "failed",
      unreachable: 0,
      reachable: 0,
      pruned: 0,
    };
    const lease = leadership?.holds(array);
    if (leadership && !lease) return { ...report, mode: "standby" };
    const read = await readArray(
      { source: deps.source, store, log, now: clock.now(), reconcileEvery: cfg.reconcile_every },
      array,
      () => knownOpen(array),
    );
    const { fetched, failure } = read;
    if (!("failure" in read)) report.mode = read.mode;
    if (errorCode(failure) === "STORE_UNAVAILABLE") {
      log.warn("alert poll skipped: the shared store is unreachable"); // not the array; the next poll catches up
      return report;
    }
    const forecast = failure === undefined ? await forecastAlert(array, log) : undefined;
    const certificates = failure === undefined ? await certificateAlerts(array, log) : [];
    const always =
      !windowsLooked.has(array) || windowed.has(array) || forecast !== undefined || certificates.length > 0;
    const readThem =
      failure === undefined && (await windowsNeeded(store, array, fetched?.alerts ?? [], always));
    const windows = readThem ? await readWindows(deps.source, array, log) : [];
    if (readThem) windowsLooked.add(array);
    let queued = false;
    await lock.run(async () => {
      const uow = new UnitOfWork(store);
      const ctx = planCtx();
      const held = windowHolds(array, windows, ctx.now);
      if (held.live.length) ctx.hold = held.hold;
      if (failure !== undefined) {
        const r = await recordPollFailure(uow, ctx, target, failureReason(failure));
        report.unreachable = r.raised;
      } else {
        report.reachable = (await recordPollSuccess(uow, ctx, target)).resolved;
        if (fetched) {
          Object.assign(report, await planPoll(uow, ctx, target, fetched.alerts), { mode: fetched.mode });
          if (forecast) addOutcome(report, await planPoll(uow, ctx, target, [forecast]));
          if (certificates.length) addOutcome(report, await planPoll(uow, ctx, target, certificates));
          // Only arrays that have had a window since start read what it held: no store read for the rest.
          if (windows.length || held.tallies.size) windowed.add(array);
          if (windowed.has(array) && !(await settleWindows(uow, array, windows, held.tallies, ctx.now)))
            windowed.delete(array);
          if (fetched.mode === "reconcile") {
            report.pruned = await pruneArray(uow, array, fetched.cursor.maxUpdated, cfg.retention);
          }
          // An idle poll changes nothing, so it commits nothing (no fsync for 200 arrays × every 30 s).
          const had = fetched.previous;
          if (
            had?.maxUpdated !== fetched.cursor.maxUpdated ||
            had.reconciledAt !== fetched.cursor.reconciledAt
          ) {
            uow.put(NS.cursor, array, fetched.cursor);
          }
        }
      }
      // A poll that changed nothing writes nothing, and one that queued no card wakes no notifier: at 1,000 arrays
      // an idle poll paid an empty transaction (a Redis round trip with replicas) and a read of the whole outbox,
      // 33 times a second, for no news. Cards already waiting have the notifier's own timer.
      queued = uow.touches(NS.outbox);
      if (uow.pending === 0) return;
      try {
        await uow.commit(lease ? leadership?.guardFor(lease) : undefined);
      } catch (err) {
        if (!lease || errorCode(err) !== "STORE_FENCED") throw err;
        // Paused past the lease: a successor polls this array now; this result must not land.
        leadership?.lost(array, lease);
        report.mode = "fenced";
      }
    });
    if (report.mode === "fenced") {
      log.warn("alert poll discarded: the polling lease moved to another replica");
      return report;
    }
    if (failure !== undefined) log.warn({ err: failure }, "alert poll failed");
    totals.polls += 1;
    if (failure !== undefined) totals.failedPolls += 1;
    for (const k of Object.keys(emptyOutcome()) as (keyof PollOutcome)[]) totals[k] += report[k];
    totals.unreachable += report.unreachable;
    totals.reachable += report.reachable;
    if (queued) notifier.kick();
    return report;
  }

  function track<T>(p: Promise<T>): Promise<T> {
    running.add(p);
    p.finally(() => running.delete(p)).catch(() => undefined);
    return p;
  }

  function schedule(target: ArrayTarget, delay: number): void {
    const earlier = timers.get(target.name);
    if (earlier) clock.clearTimer(earlier);
    timers.set(
      target.name,
      clock.setTimer(() => {
        timers.delete(target.name);
        if (!started) return;
        track(gate.schedule(() => poll(target)))
          .catch((err: unknown) => logger.error({ err, array: target.name }, "alert poll crashed"))
          .finally(() => {
            if (!started || !spread) return;
            schedule(target, spread.next(clock.now(), target.name));
          });
      }, delay),
    );
  }

  const commands = commandPort({ store, router, chat: deps.chat, now: () => clock.now(), timeZone });

  return {
    router,
    commands,
    leadership,
    matches: isAlertAction,
    start() {
      if (started || !cfg.enabled) return;
      started = true;
      const targets = deps.source.arrays();
      spread = new PollSpread(
        targets.map((t) => t.name),
        cfg.poll_interval,
        cfg.jitter,
        random,
      );
      const now = clock.now();
      for (const t of targets) schedule(t, spread.start(now, t.name));
      leadership?.start();
      notifier.kick();
    },
    async stop() {
      started = false;
      for (const h of timers.values()) clock.clearTimer(h);
      timers.clear();
      await Promise.allSettled([...running]);
      await notifier.idle();
      notifier.stop();
      await leadership?.stop();
    },
    pollNow(array) {
      return track(poll(targetOf(array)));
    },
    async idle() {
      await leadership?.idle();
      while (running.size > 0) await Promise.allSettled([...running]);
      await notifier.idle();
    },
    async flush() {
      notifier.kick();
      await notifier.idle();
    },
    handleClick(input) {
      return handleAlertClick(
        {
          store,
          source: deps.source,
          lock,
          clock,
          notifier,
          authorizer: deps.authorizer,
          ...(deps.followUps ? { followUps: deps.followUps } : {}),
          snoozePresets: cfg.snooze_presets,
          timeZone,
          logger,
        },
        input,
      );
    },
    async alerts(array) {
      const list = await store.list<AlertRecord>(
        NS.alert,
        array === undefined ? {} : { prefix: keyPrefix(array) },
      );
      return list.map((e) => e.value);
    },
    stats() {
      return { ...totals, ...notifier.stats };
    },
  };
}
