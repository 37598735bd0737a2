/**
 * Log lines never break into the console's prompt: a warning logged while an interactive session waits at its
 * prompt is written by the console, in its own short form, above a redrawn prompt; never as raw JSON, never
 * with a secret.
 */
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { consoleLogSink, formatLogLine } from "../../src/local/console-log.js";
import { runConsole } from "../../src/local/run-console.js";
import { createLogger } from "../../src/logger.js";
import { type Harness, startHarness } from "../core/harness.js";

const ESC = String.fromCharCode(27);
const stderr = new PassThrough();
const sink = consoleLogSink(stderr);
const logger = createLogger({ level: "warn", destination: sink.stream });
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ logger });
});
afterAll(async () => h.close());

describe("the console's log lines", () => {
  test("a warning while the person is at the prompt is a short line above the prompt, not JSON", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let out = "";
    output.on("data", (d: Buffer) => {
      out += d.toString();
    });
    const ended = runConsole({
      pipeline: h.pipeline,
      outcomes: { records: h.audits },
      input,
      output,
      interactive: true,
      initialUser: "carol",
      logLines: sink,
    });
    input.write("/array fs list\n");
    await expect.poll(() => out.split("carol> ").length).toBeGreaterThanOrEqual(3);
    logger.warn({ array: "lab-1", api_token: "T-very-secret-77" }, "array lab-1 answered slowly");
    input.end();
    expect(await ended).toBe(0);
    expect(out).toContain("warning: array lab-1 answered slowly (array=lab-1, api_token=");
    const after = out.slice(out.indexOf("warning: array lab-1"));
    expect(out).toContain(`\r${ESC}[2Kwarning: array lab-1 answered slowly`);
    // The prompt is drawn again below the warning, so typing goes on where it was.
    expect(after.split("\n")[1]).toContain("carol> ");
    expect(out).not.toContain('"level"');
    expect(out).not.toContain("T-very-secret-77");
  });

  test("before and after a session, lines go to the fallback stream in the same short form", () => {
    let err = "";
    stderr.on("data", (d: Buffer) => {
      err += d.toString();
    });
    logger.error({ err: new Error("connection refused") }, "simulator fb-dr-01 failed to start");
    expect(err).toBe("error: simulator fb-dr-01 failed to start: connection refused\n");
    expect(formatLogLine("plain text\n")).toBe("plain text");
  });
});
