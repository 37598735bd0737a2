/**
 * Several bot replicas in one test: each is the Slack process as main.ts composes it (runSlack in HTTP mode,
 * compose() with this replica's name, clock and metrics), all on one real redis-server, one simulator
 * and one fake Slack Web API. Alert time is one manual clock that every replica sees through its own view, so a
 * replica can be paused (its timers held back) or killed (timers dropped, Redis connection cut, no goodbye).
 */

import type { AlertEngine } from "../../src/alerts/engine.js";
import { ManualClock } from "../../src/alerts/manual-clock.js";
import type { Clock, TimerHandle } from "../../src/alerts/types.js";
import type { Composed } from "../../src/compose.js";
import type { LoadedConfig } from "../../src/config/load.js";
import { createMetrics, type Metrics } from "../../src/ops/metrics.js";
import { openRequestCount } from "../../src/slack/run.js";
import type { Store } from "../../src/store/types.js";
import { cardButton } from "../fakes/card-buttons.js";
import { httpDriver, type SlackDriver } from "../fakes/drivers.js";
import type { MemoryLogger } from "../fakes/memory-logger.js";
import { slashCommand } from "../fakes/payloads.js";
import type { FakeSlackApi } from "../fakes/slack-api-server.js";
import {
  loadRunSlackConfig,
  RUN_SECRET,
  type RunningSlack,
  type RunSlackWorld,
  startRunSlack,
} from "../slack/helpers/run-slack.js";
import type { RedisServer } from "../store/redis-server.js";

export const ALERTS_CHANNEL = "CALERTS01";
export const T0 = Date.UTC(2026, 10, 24, 12, 0, 0);

/** One clock for all replicas; each replica schedules through a view that can be paused or killed. */
export class SharedTime {
  readonly clock = new ManualClock(T0);
  readonly views: ReplicaClock[] = [];
  /** Runs after each timer: every live replica's work finishes before time moves on. */
  settle: () => Promise<void> = async () => {};

  view(): ReplicaClock {
    const v = new ReplicaClock(this.clock);
    this.views.push(v);
    return v;
  }

  advance(ms: number): Promise<void> {
    return this.clock.advance(ms, () => this.settle());
  }

  advanceTo(at: number): Promise<void> {
    return this.clock.advanceTo(at, () => this.settle());
  }
}

/**
 * A replica's view of the shared time. Paused, it is a stopped process: its timers wait, and its idea of "now"
 * stays where it was when it stopped (it read the clock, then froze), so work it does before it looks again runs
 * on a stale belief that it still holds its leases. Killed, its timers never run.
 */
export class ReplicaClock implements Clock {
  private state: "live" | "paused" | "dead" = "live";
  private parked: (() => void)[] = [];
  private frozenAt: number | undefined;
  constructor(private readonly base: ManualClock) {}
  now = (): number => this.frozenAt ?? this.base.now();
  setTimer(fn: () => void, ms: number): TimerHandle {
    return this.base.setTimer(() => {
      if (this.state === "live") fn();
      else if (this.state === "paused") this.parked.push(fn);
    }, ms);
  }
  clearTimer(h: TimerHandle): void {
    this.base.clearTimer(h);
  }
  pause(): void {
    this.state = "paused";
    this.frozenAt = this.base.now();
  }
  /** Continues: the clock catches up and what came due while paused runs. */
  resume(): void {
    this.state = "live";
    this.frozenAt = undefined;
    for (const fn of this.parked.splice(0)) fn();
  }
  kill(): void {
    this.state = "dead";
    this.parked = [];
  }
  get live(): boolean {
    return this.state === "live";
  }
}

export interface Replica {
  name: string;
  app: RunningSlack;
  driver: SlackDriver;
  /** The replica's store (the shared Redis one). */
  store(): Store;
  metrics: Metrics;
  clock: ReplicaClock;
  /** What alerting and the store logged. */
  log: MemoryLogger;
  engine(): AlertEngine;
  /** Resolves at the next time this replica's store connection becomes ready. */
  nextStoreUp(): Promise<void>;
  /** Resolves at the next time it loses it. */
  nextStoreDown(): Promise<void>;
  /** Dies without a goodbye: no lease released, no Redis connection closed cleanly. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** bot.yml for replicas: the world's arrays, the access rules, the Redis store and an alert route. */
export function replicaConfig(
  world: RunSlackWorld,
  redis: RedisServer,
  moreArrays: readonly string[] = [],
  alertsEnabled = true,
): LoadedConfig {
  return loadRunSlackConfig(
    world,
    [
      "access:",
      "  default_role: none",
      "  operator: { users: [UBOB, UOPS1, UOPS2, UOPS3, UOPS4, UOPS5, UOPS6, UOPS7, UOPS8, UOPS9, UOPS10, UOPS11, UOPS12, UOPS13, UOPS14, UOPS15, UOPS16, UOPS17, UOPS18, UOPS19, UOPS20] }",
      "  viewer: { users: [UVIEW] }",
      "  admin: { users: [UALICE] }",
      "store:",
      "  kind: redis",
      `  address: 127.0.0.1:${redis.port}`,
      "  lease_ttl: 15s",
      "alerts:",
      `  enabled: ${alertsEnabled}`,
      "  poll_interval: 30s",
      "  routes:",
      "    - name: all",
      `      channels: [${ALERTS_CHANNEL}]`,
    ],
    moreArrays,
  );
}

export async function startReplica(name: string, loaded: LoadedConfig, time: SharedTime): Promise<Replica> {
  const clock = time.view();
  let core: Composed | undefined;
  const composed = (): Composed => {
    if (!core) throw new Error(`replica ${name} is not composed yet`);
    return core;
  };
  const metrics = createMetrics({
    collectDefault: false,
    pendingCount: async () => (core ? openRequestCount(core.pending)() : 0),
  });
  // As main.ts's Slack mode composes it, with this replica's name, clock and metrics; lease expiries are
  // checked in the store by the same clock that wrote them.
  const app = await startRunSlack(loaded, {
    replica: { id: name, clock, now: clock.now, metrics },
    onComposed: (c) => {
      core = c;
    },
  });
  let dead = false;
  return {
    name,
    app,
    driver: httpDriver(app.baseUrl, RUN_SECRET),
    store: () => composed().store,
    metrics,
    clock,
    log: app.log,
    nextStoreUp: () => nextLine(app.log, /^shared store reachable/),
    nextStoreDown: () => nextLine(app.log, /^shared store unreachable/),
    engine: () => {
      const engine = composed().alertClicks;
      if (!engine) throw new Error(`replica ${name} has no alert engine`);
      return engine;
    },
    async kill() {
      dead = true;
      clock.kill();
      await composed().store.close();
    },
    async stop() {
      if (!dead) clock.resume();
      await app.stop();
    },
  };
}

/** Settles every replica that runs: its polls, deliveries and lease ticks finish before time moves. */
export function settleLive(replicas: () => readonly Replica[]): () => Promise<void> {
  return async () => {
    for (let i = 0; i < 3; i++) {
      for (const r of replicas()) if (r.clock.live) await r.engine().idle();
    }
  };
}

/** The next log line (written from now on) whose message matches. */
async function nextLine(log: MemoryLogger, msg: RegExp): Promise<void> {
  const from = log.lines.length;
  await log.waitFor((l) => log.lines.indexOf(l) >= from && msg.test(String(l["msg"])));
}

let requestSeq = 0;

/**
 * Asks bob on replica `on` for a shrink of `builds` below its usage (a change that needs one approval) and waits
 * for the request card in C1; returns the card's ts and its Approve button.
 */
export async function requestShrink(fake: FakeSlackApi, size: string, on: Replica) {
  const inC1 = (c: { args: Record<string, unknown> }) => c.args["channel"] === "C1";
  const before = fake.callsOf("chat.postMessage").filter(inC1).length;
  await on.driver.command(
    slashCommand({
      text: `fs resize builds ${size}`,
      userId: "UBOB",
      responseUrl: fake.responseUrl(`shrink-${++requestSeq}`),
    }),
  );
  const card = await fake.waitForCall("chat.postMessage", inC1, before + 1);
  const ts = [...fake.messages.values()].filter((m) => m.channel === "C1").at(-1)?.ts ?? "";
  const approve = cardButton(card, "approve");
  return { ts, approve };
}
