import { type DestinationStream, type Logger, pino } from "pino";
import { asyncDestination, type LogDestination, type LogSink } from "./log-destination.js";
import { redact, redactUrlCredentials } from "./redact.js";
import { currentTrace } from "./trace.js";

export interface LoggerOptions {
  level?: string;
  /**
   * Where lines go; defaults to stdout through the bounded asynchronous destination (src/log-destination.ts).
   * Tests pass a sink to read lines back.
   */
  destination?: DestinationStream;
  /** The default destination's buffer bound (config `log_buffer_bytes`). */
  bufferBytes?: number;
  name?: string;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const dest = opts.destination ?? asyncDestination(process.stdout as LogSink, opts.bufferBytes);
  return pino(
    {
      name: opts.name ?? "array-chatops",
      level: opts.level ?? "info",
      // Level names ("warn"), which log shippers and people read without pino's number table (issue 43).
      formatters: { level: (label) => ({ level: label }) },
      // Every line of a request carries its trace id (src/trace.ts), however deep the line is written.
      mixin: () => {
        const trace = currentTrace();
        return trace === undefined ? {} : { trace };
      },
    },
    redactingStream(dest),
  );
}

function destinationOf(logger: Logger): Partial<LogDestination> {
  return (logger as unknown as Record<symbol, Partial<LogDestination>>)[pino.symbols.streamSym] ?? {};
}

/** Lines the logger's destination dropped so far (a full or closed stdout); 0 for a destination that never drops. */
export function logLinesDropped(logger: Logger): number {
  return destinationOf(logger).dropped?.() ?? 0;
}

/** Waits, at most `timeoutMs`, for the logger's queued lines to go out: the last lines of a stopping bot. */
export async function flushLogs(logger: Logger, timeoutMs: number): Promise<void> {
  await destinationOf(logger).flush?.(timeoutMs);
}

/**
 * The one redaction at the edge of the log: each finished line is parsed and walked by `redact` before it is
 * written, so a secret goes whatever carried it (a logged object, a child logger's bindings, an error's fields,
 * the array's api-token and x-auth-token headers) and whatever its key's case; a URL in a message or an error's
 * text shows as `user:***@host`.
 */
type Flushable = DestinationStream & {
  /** pino's `logger.flush(cb)` passes a callback; flushLogs passes a time-out (LogDestination.flush). */
  flush?: (arg?: unknown) => unknown;
  dropped?: () => number;
  end?: () => void;
};

/** pino's own flush waits a second at most here: the destination never blocks, so neither may its flush. */
const PINO_FLUSH_MS = 1000;

function redactingStream(dest: DestinationStream): DestinationStream {
  const out = dest as Flushable;
  const wrapped: Flushable = { write: (line: string) => out.write(redactLine(line)) };
  // No flushSync on purpose: pino's exit path would call it, and a synchronous flush into a full pipe never ends.
  if (typeof out.flush === "function")
    wrapped.flush = (arg) => {
      if (typeof arg !== "function") return out.flush?.(arg);
      const cb = arg as () => void;
      void Promise.resolve(out.flush?.(PINO_FLUSH_MS)).then(cb, cb);
      return undefined;
    };
  if (typeof out.dropped === "function") wrapped.dropped = () => out.dropped?.() ?? 0;
  if (typeof out.end === "function") wrapped.end = () => out.end?.();
  return wrapped;
}

/** Levels whose `err` is expected (a refused login, a slow array): its message says enough, a stack is noise. */
const STACKLESS = new Set(["trace", "debug", "info", "warn"]);

function dropStacks(err: unknown, depth = 0): void {
  if (!err || typeof err !== "object" || depth > 8) return;
  const e = err as Record<string, unknown>;
  delete e["stack"];
  dropStacks(e["cause"], depth + 1);
}

function redactLine(line: string): string {
  try {
    const parsed: unknown = JSON.parse(line);
    if (parsed && typeof parsed === "object") {
      const rec = parsed as Record<string, unknown>;
      if (typeof rec["level"] === "string" && STACKLESS.has(rec["level"])) dropStacks(rec["err"]);
      return `${JSON.stringify(redact(parsed))}\n`;
    }
  } catch {
    // Not a JSON line: only its URLs can be read.
  }
  return redactUrlCredentials(line);
}

/**
 * `parent.child(bindings)`, made when first used. Most requests log nothing, and a pino child serialises its
 * bindings when it is made: three per slash command were a measurable part of a list's own cost (issue 27).
 */
export function lazyChild(parent: Logger, bindings: Record<string, unknown>): Logger {
  let child: Logger | undefined;
  return new Proxy({} as Logger, {
    get(_target, prop) {
      child ??= parent.child(bindings);
      const value: unknown = Reflect.get(child, prop, child);
      return typeof value === "function" ? value.bind(child) : value;
    },
  });
}

/** A logger that writes nowhere, for code paths given no logger. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}

export type { Logger };
