/**
 * runSlack (the process's Slack branch) as tests drive it: the demo simulator and the fake Slack Web API,
 * a config parsed from YAML the way the process parses bot.yml, and the app started on port 0 and stopped
 * with SIGTERM from an injected signal source.
 */
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type LoadedConfig, parseConfigText } from "../../../src/config/load.js";
import { runSlackMode, type SlackModeOptions } from "../../../src/main.js";
import { DEFAULT_API_TOKEN, type Simulator, startSimulator } from "../../../src/simulator/index.js";
import { type MemoryLogger, memoryLogger } from "../../fakes/memory-logger.js";
import { FakeSlackApi } from "../../fakes/slack-api-server.js";

export const RUN_SECRET = "run-slack-signing-secret";

export interface RunSlackWorld {
  sim: Simulator;
  fake: FakeSlackApi;
  /** Where bot.yml notionally lives (relative paths such as ca.pem resolve here). */
  dir: string;
  close(): Promise<void>;
}

/** The simulator (array lab-1, demo scenario), the fake Web API and a config folder holding its CA. */
export async function startRunSlackWorld(): Promise<RunSlackWorld> {
  const sim = await startSimulator({ arrayName: "lab-1", scenario: "demo" });
  const fake = await FakeSlackApi.start();
  const dir = mkdtempSync(join(tmpdir(), "run-slack-"));
  writeFileSync(join(dir, "ca.pem"), sim.ca);
  return {
    sim,
    fake,
    dir,
    close: async () => {
      await fake.close();
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts the world before the enclosing suite's tests and closes it after them; call it inside `describe`. */
export function useRunSlackWorld(): () => RunSlackWorld {
  let world: RunSlackWorld | undefined;
  beforeAll(async () => {
    world = await startRunSlackWorld();
  });
  afterAll(async () => {
    await world?.close();
  });
  return () => {
    if (world === undefined) throw new Error("the runSlack world starts in beforeAll; use it inside a test");
    return world;
  };
}

/** One `arrays:` entry using the simulator's token and CA. */
export function arrayYaml(name: string, address: string): string[] {
  return [
    `  - name: ${name}`,
    `    address: ${address}`,
    "    api_token_env: LAB_TOKEN",
    "    ca_file: ca.pem",
  ];
}

/**
 * Parses bot.yml: the simulator as array lab-1 and any `moreArrays` entries, then `lines` (access, store, ...),
 * then an HTTP-mode `slack:` section on port 0 without channel pacing; the Slack secrets and the array token
 * come from the environment.
 */
export function loadRunSlackConfig(
  world: RunSlackWorld,
  lines: readonly string[],
  moreArrays: readonly string[] = [],
): LoadedConfig {
  const yaml = [
    "arrays:",
    ...arrayYaml("lab-1", world.sim.url),
    ...moreArrays,
    ...lines,
    "slack:",
    "  port: 0",
    "  channelIntervalMs: 0",
  ].join("\n");
  return parseConfigText(yaml, {
    source: join(world.dir, "bot.yml"),
    env: {
      LAB_TOKEN: DEFAULT_API_TOKEN,
      SLACK_BOT_TOKEN: "xoxb-run-slack",
      SLACK_SIGNING_SECRET: RUN_SECRET,
      SLACK_API_URL: world.fake.apiUrl,
    },
    readFile: (p) => (p.endsWith("ca.pem") ? world.sim.ca : ""),
    baseDir: world.dir,
  });
}

export interface RunningSlack {
  port: number;
  /** http://127.0.0.1:<port>: the Slack endpoints, /metrics and /healthz. */
  baseUrl: string;
  log: MemoryLogger;
  /** runSlack's exit code, once it has stopped. */
  done: Promise<number>;
  /** Sends SIGTERM and waits for runSlack to stop. */
  stop(): Promise<number>;
}

/**
 * Starts the Slack face as the process does (main.ts's runSlackMode: Slack ports, then the composition root,
 * then the app), with a memory logger and an injected signal source, and waits until it listens.
 */
export async function startRunSlack(
  loaded: LoadedConfig,
  extra: Pick<SlackModeOptions, "onStarted" | "onStop" | "replica" | "onComposed"> = {},
): Promise<RunningSlack> {
  const log = memoryLogger();
  const signals = new EventEmitter();
  const started = log.waitFor((l) => l["msg"] === "slack app started");
  const done = runSlackMode(loaded, { logger: log.logger, signals, ...extra });
  // A start-up failure ends runSlack before it logs "started": fail then, rather than wait for the timeout.
  const stoppedEarly = done.then((code) => {
    throw new Error(`runSlack stopped (exit ${code}) before it started`);
  });
  const port = (await Promise.race([started, stoppedEarly]))["port"] as number;
  return {
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    log,
    done,
    stop: () => {
      signals.emit("SIGTERM");
      return done;
    },
  };
}
