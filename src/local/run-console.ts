/**
 * Drives a console session from a stream. Interactive (a terminal): a prompt, expired requests swept on a
 * timer. Piped input: each line runs in turn, is echoed before its answer, and the exit code is 1 when any
 * line failed, so `echo "/array fs list" | npm start` works in scripts and CI.
 */
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import type { Pipeline } from "../core/context/pipeline-types.js";
import type { Attachment, Message } from "../core/presentation/message.js";
import { redactCommandLine } from "../core/presentation/redact.js";
import type { ConsoleLogSink } from "./console-log.js";
import { CONSOLE_HELP, createConsoleSession, type OutcomeLog } from "./console-session.js";

export interface RunConsoleOptions {
  pipeline: Pipeline;
  outcomes: OutcomeLog;
  input: Readable;
  output: Writable;
  interactive: boolean;
  initialUser: string;
  knownUsers?: Readonly<Record<string, string>>;
  /** Shown once at the start of an interactive session. */
  banner?: string;
  saveAttachment?: (a: Attachment, how?: { transient?: boolean }) => string;
  /** Given when the output is not a terminal: a secret shown once goes to it instead (secret-out.ts). */
  keepSecret?: (secret: string) => string;
  /** How often an interactive session sweeps expired requests. */
  sweepMs?: number;
  /** Shown (with their buttons) before the first line: requests still waiting from before a restart. */
  waiting?: readonly Message[];
  /** Titles of the changes still waiting for a confirmation or approval (piped input ending with one fails). */
  stillWaiting?: () => Promise<string[]>;
  /** The logger's lines, written by the console in its own short form above the prompt (console-log.ts). */
  logLines?: ConsoleLogSink;
}

interface LineSource {
  next(): Promise<string | undefined>;
}

function lineSource(rl: ReturnType<typeof createInterface>): LineSource {
  const queue: string[] = [];
  const waiters: ((line: string | undefined) => void)[] = [];
  let closed = false;
  rl.on("line", (line) => {
    const w = waiters.shift();
    if (w) w(line);
    else queue.push(line);
  });
  rl.on("close", () => {
    closed = true;
    for (const w of waiters.splice(0)) w(undefined);
  });
  return {
    next() {
      if (queue.length > 0) return Promise.resolve(queue.shift());
      if (closed) return Promise.resolve(undefined);
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}

/** Runs until input ends or /quit; resolves with the process exit code. */
export async function runConsole(opts: RunConsoleOptions): Promise<number> {
  const rl = createInterface({ input: opts.input, output: opts.output, terminal: opts.interactive });
  const lines = lineSource(rl);
  // A reader that went away (EPIPE) must not crash the session; the exit code says output was lost.
  let outputFailed = false;
  const onOutputError = () => {
    outputFailed = true;
  };
  opts.output.on("error", onOutputError);
  const write = (text: string) => {
    if (outputFailed) return;
    opts.output.write(`${text}\n`);
  };
  // A log line while the person types: clear the prompt line, print the line, redraw the prompt and what was typed.
  let atPrompt = false;
  const detachLog = opts.logLines?.attach((text) => {
    if (!opts.interactive || !atPrompt) return write(text);
    if (outputFailed) return;
    opts.output.write(`\r\x1b[2K${text}\n`);
    rl.prompt(true);
  });
  const session = createConsoleSession({
    pipeline: opts.pipeline,
    outcomes: opts.outcomes,
    initialUser: opts.initialUser,
    color: opts.interactive,
    ...(opts.knownUsers ? { knownUsers: opts.knownUsers } : {}),
    io: {
      write,
      async ask(question, how) {
        const secret = how?.secret === true;
        if (opts.interactive) {
          rl.setPrompt(question);
          rl.prompt();
        } else write(question.trimEnd());
        const answer = secret ? await hidden(rl, () => lines.next()) : await lines.next();
        if (!opts.interactive && answer !== undefined) write(`  ${secret ? "(hidden)" : answer}`);
        return answer;
      },
      ...(opts.saveAttachment ? { saveAttachment: opts.saveAttachment } : {}),
      ...(opts.keepSecret ? { keepSecret: opts.keepSecret } : {}),
    },
  });

  let failed = 0;
  let lineNo = 0;
  const failures: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  if (opts.waiting && opts.waiting.length > 0) {
    write(`${opts.waiting.length} request(s) made before the restart still wait for an answer:`);
    await session.show(
      opts.waiting.map((message) => ({ kind: "reply", message })),
      "requests made before the restart",
    );
  }
  if (opts.interactive) {
    write(opts.banner ?? CONSOLE_HELP);
    timer = setInterval(() => {
      opts.pipeline
        .sweepExpired()
        .then((effects) => session.show(effects))
        .catch((err: unknown) => write(`(sweep failed: ${String(err)})`));
    }, opts.sweepMs ?? 30_000);
    timer.unref();
  }
  try {
    for (;;) {
      if (opts.interactive) {
        rl.setPrompt(`${session.user}> `);
        rl.prompt();
      }
      atPrompt = true;
      const line = await lines.next();
      atPrompt = false;
      if (line === undefined) break;
      lineNo++;
      if (!opts.interactive) {
        if (line.trim() === "") continue;
        // The echo is output like any other: the line as the audit keeps it (secrets and URL passwords masked).
        write(`${session.user}> ${redactCommandLine(line)}`);
        await session.show(await opts.pipeline.sweepExpired());
      }
      const result = await session.handleLine(line);
      // Piped: a late answer is printed before the next line runs, so output reads in order.
      if (!opts.interactive) await session.settled();
      if (!result.ok) {
        failed++;
        // Listed as the echo showed it: secrets and URL passwords masked.
        failures.push(`line ${lineNo}: ${redactCommandLine(line.trim())}`);
      }
      if (!opts.interactive) write("");
      if (result.quit) break;
    }
    await session.settled();
    if (!opts.interactive) {
      // A script that ends while a change waits for its click has changed nothing: say so, and fail.
      const waiting = (await opts.stillWaiting?.()) ?? [];
      if (waiting.length > 0) {
        failed++;
        write(
          `Nothing was done for ${waiting.length === 1 ? "this change, which waits" : `these ${waiting.length} changes, which wait`} for a confirmation or approval that the input never gave: ${waiting.join("; ")}.`,
        );
      }
      if (failures.length > 0)
        write(
          `${failures.length} ${failures.length === 1 ? "line" : "lines"} failed:\n${failures.map((f) => `  ${f}`).join("\n")}`,
        );
    }
  } finally {
    clearInterval(timer);
    detachLog?.();
    rl.close();
  }
  // Everything written must reach the reader before the process exits, however slowly it reads.
  const flushed = await flush(opts.output);
  opts.output.off("error", onOutputError);
  if (!flushed || outputFailed) return 1;
  return !opts.interactive && failed > 0 ? 1 : 0;
}

/** readline's echo and history, which a terminal session has; the hook is internal to node:readline. */
interface EchoingReadline {
  _writeToOutput?: (s: string) => void;
  history?: string[];
}

/**
 * Reads a line without showing it: at a terminal, readline echoes each key through _writeToOutput (there is
 * no public switch), so it is silenced while the secret is typed, and the line is dropped from the history
 * that arrow-up would bring back. Piped input is never echoed by readline.
 */
async function hidden(
  rl: ReturnType<typeof createInterface>,
  read: () => Promise<string | undefined>,
): Promise<string | undefined> {
  const r = rl as unknown as EchoingReadline;
  const original = r._writeToOutput;
  if (original) r._writeToOutput = (s: string) => original.call(rl, s.includes("\n") ? "\n" : "");
  try {
    const answer = await read();
    if (answer !== undefined && r.history?.[0] === answer) r.history.shift();
    return answer;
  } finally {
    if (original) r._writeToOutput = original;
  }
}

/** Resolves true once the stream has handed every byte on, false when it failed. */
function flush(output: Writable): Promise<boolean> {
  return new Promise((resolve) => {
    if (output.destroyed || output.writableEnded) {
      resolve(!output.errored);
      return;
    }
    // The callback of an empty write runs after every write queued before it.
    output.write("", (err) => resolve(err == null));
  });
}
