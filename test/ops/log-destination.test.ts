/**
 * The log's destination and line form (issues 43 and 44): level names, no stack on expected warnings, a bounded
 * buffer in front of a stream that stopped taking lines, the count of dropped lines in the next line that gets
 * out, and a flush that ends.
 */
import { once } from "node:events";
import { Writable } from "node:stream";
import { describe, expect, test } from "vitest";
import { asyncDestination } from "../../src/log-destination.js";
import { createLogger, flushLogs, logLinesDropped } from "../../src/logger.js";
import { createMetrics } from "../../src/ops/metrics.js";
import { memoryLogger } from "../fakes/memory-logger.js";

/** A real writable whose reader takes nothing until `resume()`: a log shipper that stopped reading. */
function stalledStream() {
  const chunks: string[] = [];
  const held: (() => void)[] = [];
  let flowing = false;
  const stream = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk.toString());
      if (flowing) cb();
      else held.push(cb);
    },
  });
  return {
    stream,
    chunks,
    resume() {
      flowing = true;
      for (const cb of held.splice(0)) cb();
    },
  };
}

describe("log lines", () => {
  test("carry the level's name, and an expected warning's error has no stack while an error's keeps it", () => {
    const mem = memoryLogger("info");
    mem.logger.warn({ err: new Error("array lab-1 is slow") }, "slow array");
    mem.logger.error({ err: new Error("store write failed") }, "unexpected");
    const [warn, error] = mem.lines as [
      Record<string, { stack?: string; message?: string }>,
      (typeof mem.lines)[0],
    ];
    expect(warn["level"]).toBe("warn");
    expect(warn["err"]?.message).toBe("array lab-1 is slow");
    expect(warn["err"]?.stack).toBeUndefined();
    expect(error["level"]).toBe("error");
    expect((error["err"] as { stack?: string }).stack).toContain("store write failed");
  });
});

describe("the asynchronous destination", () => {
  test("drops past its bound without blocking, counts it, and says so in the next line that gets out", async () => {
    const out = stalledStream();
    const logger = createLogger({ destination: asyncDestination(out.stream, 4096) });
    const metrics = createMetrics({ collectDefault: false, logLinesDropped: () => logLinesDropped(logger) });
    for (let i = 0; i < 200; i++) logger.info({ i }, "a line of some length to fill the buffer quickly");
    const dropped = logLinesDropped(logger);
    expect(dropped).toBeGreaterThan(100);
    expect(await metrics.registry.getSingleMetricAsString("array_chatops_log_lines_dropped_total")).toContain(
      `array_chatops_log_lines_dropped_total ${dropped}`,
    );
    // A flush into a stream that takes nothing ends at its time-out.
    await flushLogs(logger, 20);

    out.resume();
    await flushLogs(logger, 60_000);
    logger.info("reader is back");
    const last = JSON.parse(out.chunks.at(-1) ?? "{}") as Record<string, unknown>;
    expect(last).toMatchObject({ msg: "reader is back", level: "info", log_lines_dropped: dropped });
    logger.info("and the next one");
    expect(JSON.parse(out.chunks.at(-1) ?? "{}")).not.toHaveProperty("log_lines_dropped");
  });

  test("a stream that failed (the reader died) takes nothing more and every line is counted", async () => {
    const stream = new Writable({
      write(_chunk, _enc, cb) {
        cb(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
      },
    });
    const logger = createLogger({ destination: asyncDestination(stream, 4096) });
    const failed = once(stream, "error");
    logger.info("first");
    await failed;
    for (let i = 0; i < 10; i++) logger.info({ i }, "after the reader died");
    expect(logLinesDropped(logger)).toBe(11);
  });
});
