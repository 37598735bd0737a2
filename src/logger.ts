import { type DestinationStream, type Logger, pino } from "pino";
import { redact, redactUrlCredentials } from "./redact.js";

export interface LoggerOptions {
  level?: string;
  /** Where lines go; defaults to stdout. Tests pass a sink to read lines back. */
  destination?: DestinationStream;
  name?: string;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  return pino(
    {
      name: opts.name ?? "array-chatops",
      level: opts.level ?? "info",
    },
    redactingStream(opts.destination ?? pino.destination(1)),
  );
}

/**
 * The one redaction at the edge of the log: each finished line is parsed and walked by `redact` before it is
 * written, so a secret goes whatever carried it (a logged object, a child logger's bindings, an error's fields,
 * the array's api-token and x-auth-token headers) and whatever its key's case; a URL in a message or an error's
 * text shows as `user:***@host`.
 */
type Flushable = DestinationStream & {
  flush?: (cb?: (err?: Error) => void) => void;
  flushSync?: () => void;
  end?: () => void;
};

function redactingStream(dest: DestinationStream): DestinationStream {
  const out = dest as Flushable;
  const wrapped: Flushable = { write: (line: string) => out.write(redactLine(line)) };
  if (typeof out.flush === "function") wrapped.flush = (cb) => out.flush?.(cb);
  if (typeof out.flushSync === "function") wrapped.flushSync = () => out.flushSync?.();
  if (typeof out.end === "function") wrapped.end = () => out.end?.();
  return wrapped;
}

function redactLine(line: string): string {
  try {
    const parsed: unknown = JSON.parse(line);
    if (parsed && typeof parsed === "object") return `${JSON.stringify(redact(parsed))}\n`;
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
