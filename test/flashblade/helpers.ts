/**
 * Shared test helpers: array configs, a log sink that keeps every line, a recording sleep, and the coded
 * error a call throws or a promise rejects with.
 */
import { EventEmitter } from "node:events";
import { Writable } from "node:stream";
import type { ResolvedArrayConfig } from "../../src/config/arrays.js";
import { Secret } from "../../src/config/secret.js";
import { BotError } from "../../src/errors.js";
import { createLogger, type Logger } from "../../src/logger.js";

export function arrayConfig(over: Partial<ResolvedArrayConfig> & { name: string }): ResolvedArrayConfig {
  return {
    origin: "https://127.0.0.1:9",
    apiToken: new Secret("T-test-token"),
    insecure: false,
    tags: [],
    connections: 4,
    rate: { maxConcurrent: 8, minSpacingMs: 0, maxQueue: 5000 },
    timeouts: { connectMs: 2000, readMs: 5000 },
    downAfterFailures: 3,
    ...over,
  };
}

export interface LogCapture {
  logger: Logger;
  lines: string[];
  /** Resolves with the first line (already written or yet to come) that satisfies `match`. */
  waitFor(match: (line: string) => boolean): Promise<string>;
}

/** A logger whose every line is kept, to scan for secrets and to wait on events. */
export function captureLogger(level = "debug"): LogCapture {
  const lines: string[] = [];
  const events = new EventEmitter();
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) {
        lines.push(line);
        events.emit("line", line);
      }
      cb();
    },
  });
  const waitFor = (match: (line: string) => boolean) =>
    new Promise<string>((resolve) => {
      const found = lines.find(match);
      if (found !== undefined) return resolve(found);
      const listener = (line: string) => {
        if (!match(line)) return;
        events.off("line", listener);
        resolve(line);
      };
      events.on("line", listener);
    });
  return { logger: createLogger({ level, destination: sink }), lines, waitFor };
}

/** A sleep that records what it was asked to wait and returns at once. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; delays: number[] } {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms: number) => {
      delays.push(ms);
    },
  };
}

/** The BotError `fn` throws; anything else it throws is rethrown, and not throwing fails the test. */
export function thrown(fn: () => unknown): BotError {
  try {
    fn();
  } catch (err) {
    if (err instanceof BotError) return err;
    throw err;
  }
  throw new Error("expected an error");
}

/** The BotError `p` rejects with; fulfilling, or rejecting with anything else, fails the test. */
export async function failure(p: Promise<unknown>): Promise<BotError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof BotError)) throw new Error(`expected a BotError, got ${String(err)}`);
  return err;
}
