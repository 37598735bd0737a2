import { type AlertEngine, createAlertEngine } from "../../../src/alerts/engine.js";
import { poolAlertSource } from "../../../src/alerts/pool-source.js";
import type { AlertAuthorizer, AlertChat, AlertSource, FollowUpRunner } from "../../../src/alerts/types.js";
import { type AlertsConfigInput, defaultAlertsConfig } from "../../../src/config/alerts.js";
import { Secret } from "../../../src/config/secret.js";
import { createArrayPool } from "../../../src/flashblade/pool.js";
import type { ArrayPool } from "../../../src/flashblade/types.js";
import { silentLogger } from "../../../src/logger.js";
import { type Simulator, startSimulator, type TlsMaterial } from "../../../src/simulator/index.js";
import type { ScenarioName } from "../../../src/simulator/state.js";
import { selfSignedCertificate } from "../../../src/simulator/tls.js";
import { createChatPort } from "../../../src/slack/chat-port.js";
import { createFileUploader } from "../../../src/slack/file-upload.js";
import { PacedSlackClient } from "../../../src/slack/paced-client.js";
import { createMemoryStore } from "../../../src/store/memory.js";
import type { Store } from "../../../src/store/types.js";
import { FakeSlackApi, type PostedMessage } from "../../fakes/slack-api-server.js";
import { arrayConfig } from "../../flashblade/helpers.js";
import { FakeClock } from "./fake-clock.js";

export const TOKEN = "T-alerts-test-token";
export const ONCALL = "CONCALL01";
export const STORAGE = "CSTORAGE1";
export const OPERATOR = "UOPERATOR";
export const VIEWER = "UVIEWER01";
/** 2024-03-04 10:00 UTC, a Monday morning. */
export const T0 = Date.UTC(2024, 2, 4, 10, 0, 0);

let tls: Promise<TlsMaterial> | undefined;
const sharedTls = () => {
  tls ??= selfSignedCertificate();
  return tls;
};

export interface AlertHarness {
  clock: FakeClock;
  sims: Map<string, Simulator>;
  sim: Simulator;
  pool: ArrayPool;
  source: AlertSource;
  slack: FakeSlackApi;
  chat: AlertChat;
  store: Store;
  engine: AlertEngine;
  /** A new engine over the same store, pool and Slack: what a restarted bot would build. */
  restart(store?: Store): AlertEngine;
  /** Advances time and lets every poll and delivery it triggers finish. */
  advance(ms: number): Promise<void>;
  /** Top-level messages in `channel`, oldest first, as Slack now shows them (history = earlier versions). */
  posts(channel: string): PostedMessage[];
  /** Replies in the thread of `ts`. */
  thread(ts: string): string[];
  close(): Promise<void>;
}

export const authorizer: AlertAuthorizer = {
  allowed: async (actor, _array, role) => role === "viewer" || actor.userId === OPERATOR,
};

export interface HarnessOptions {
  arrays?: readonly string[];
  config?: AlertsConfigInput;
  store?: Store;
  /** Retries the Slack client makes before the notifier's own retry takes over. */
  slackRetries?: number;
  /** REST versions the simulators serve (default all). */
  versions?: string;
  followUps?: FollowUpRunner;
  /** The engine's jitter source (default a constant 0.5: first polls mid-interval, no spread). */
  random?: () => number;
  /** The simulators' scenario (default "empty"). */
  scenario?: ScenarioName;
}

export async function startAlertHarness(o: HarnessOptions = {}): Promise<AlertHarness> {
  const clock = new FakeClock(T0);
  const names = o.arrays ?? ["fb1"];
  const sims = new Map<string, Simulator>();
  for (const name of names) {
    sims.set(
      name,
      await startSimulator({
        tls: await sharedTls(),
        apiTokens: [{ token: TOKEN, username: "pureuser" }],
        scenario: o.scenario ?? "empty",
        arrayName: name,
        clock: clock.now,
        sleep: async () => {},
        ...(o.versions ? { versions: o.versions } : {}),
      }),
    );
  }
  const logger = silentLogger();
  const pool = createArrayPool(
    [...sims.values()].map((s) =>
      arrayConfig({
        name: s.arrayName,
        origin: s.url,
        ca: s.ca,
        apiToken: new Secret(TOKEN),
        tags: ["prod"],
      }),
    ),
    { logger, now: clock.now, random: () => 0.5, sleep: async () => {} },
  );
  const source = poolAlertSource(pool);
  const slack = await FakeSlackApi.start();
  const web = slack.webClient("xoxb-alerts-test");
  const paced = new PacedSlackClient(
    web,
    { channelIntervalMs: 0, maxRetries: o.slackRetries ?? 1, retryBaseMs: 1, sleep: async () => {} },
    logger,
  );
  const chat = createChatPort({
    client: paced,
    uploader: createFileUploader({ client: paced, logger }),
    logger,
  });
  const store = o.store ?? createMemoryStore({ now: clock.now });
  const config = defaultAlertsConfig({
    routes: [
      { name: "critical", min_severity: "critical", channels: [ONCALL] },
      { name: "storage", channels: [STORAGE] },
    ],
    ...o.config,
  });
  const build = (s: Store) =>
    createAlertEngine({
      config,
      source,
      chat,
      store: s,
      authorizer,
      clock,
      random: o.random ?? (() => 0.5),
      logger,
      ...(o.followUps ? { followUps: o.followUps } : {}),
    });
  const engine = build(store);
  const h: AlertHarness = {
    clock,
    sims,
    sim: [...sims.values()][0] as Simulator,
    pool,
    source,
    slack,
    chat,
    store,
    engine,
    restart: (s = store) => {
      h.engine = build(s);
      return h.engine;
    },
    advance: (ms) => clock.advance(ms, () => h.engine.idle()),
    posts: (channel) =>
      [...slack.messages.values()].filter((m) => m.channel === channel && m.threadTs === undefined),
    thread: (ts) => [...slack.messages.values()].filter((m) => m.threadTs === ts).map((m) => m.text),
    async close() {
      await h.engine.stop();
      await pool.close();
      await slack.close();
      for (const s of sims.values()) await s.close();
    },
  };
  return h;
}
