/** Shared test helpers: array configs, a log sink that keeps every line, and a recording sleep. */
import { Writable } from "node:stream";
import { type ResolvedArrayConfig, Secret } from "../../src/config/arrays.js";
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

/** A logger whose every line is kept, to scan for secrets. */
export function captureLogger(level = "debug"): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      cb();
    },
  });
  return { logger: createLogger({ level, destination: sink }), lines };
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
