/**
 * Starts the real Slack app (Bolt, either transport) against the fake Web API (and the fake Socket Mode
 * server), with whatever pipeline the test brings.
 */
import { parseSlackSection, type SlackConfig, type SlackConfigInput } from "../../../src/config/slack.js";
import { createSlackApp, type SlackApp, type SlackAppDeps } from "../../../src/slack/app.js";
import { httpDriver, type SlackDriver, socketDriver } from "../../fakes/drivers.js";
import { type MemoryLogger, memoryLogger } from "../../fakes/memory-logger.js";
import { FakeSlackApi } from "../../fakes/slack-api-server.js";
import { FakeSocketMode } from "../../fakes/socket-mode-server.js";

export const SECRET = "test-signing-secret-0123456789";
export const BOT_TOKEN = "xoxb-test-bot-token";
export const APP_TOKEN = "xapp-test-app-token";

export type Mode = "http" | "socket";

export interface Harness {
  mode: Mode;
  fake: FakeSlackApi;
  socket?: FakeSocketMode;
  app: SlackApp;
  driver: SlackDriver;
  log: MemoryLogger;
  config: SlackConfig;
  /** Base URL of the HTTP side (the receiver in HTTP mode, the ops server in Socket Mode). */
  baseUrl: string;
  stop(): Promise<void>;
}

export async function startHarness(
  mode: Mode,
  deps: Omit<SlackAppDeps, "logger"> & { logger?: SlackAppDeps["logger"] },
  overrides: Partial<SlackConfigInput> = {},
): Promise<Harness> {
  const fake = await FakeSlackApi.start();
  const socket = mode === "socket" ? await FakeSocketMode.start() : undefined;
  if (socket) fake.socketUrl = socket.url;
  const log = memoryLogger();
  const config = parseSlackSection({
    mode,
    botToken: BOT_TOKEN,
    ...(mode === "http" ? { signingSecret: SECRET } : { appToken: APP_TOKEN }),
    apiUrl: fake.apiUrl,
    port: 0,
    channelIntervalMs: 0,
    drainSeconds: 5,
    ...overrides,
  });
  const app = createSlackApp(config, { host: "127.0.0.1", logger: log.logger, ...deps });
  const { port } = await app.start();
  const baseUrl = `http://127.0.0.1:${port}`;
  if (socket) await socket.waitConnected();
  const driver = socket ? socketDriver(socket) : httpDriver(baseUrl, SECRET);
  return {
    mode,
    fake,
    ...(socket ? { socket } : {}),
    app,
    driver,
    log,
    config,
    baseUrl,
    async stop() {
      await app.stop();
      await socket?.close();
      await fake.close();
    },
  };
}
