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
      // Every logged object and every child logger's bindings pass the one redaction (secrets by key, whatever
      // their case or depth: tokens, passwords, the array's api-token and x-auth-token headers); errors are
      // serialised first, then redacted, so a secret in an error's fields goes too.
      formatters: { log: (obj) => redact(obj), bindings: (b) => redact(b) },
      serializers: { err: (e: unknown) => redact(pino.stdSerializers.err(e as Error)) },
    },
    redactingStream(opts.destination ?? pino.destination(1)),
  );
}

/**
 * A message or an error's text may quote a URL with its credentials, so each finished line also has them masked
 * (`user:***@host`) before it is written.
 */
type Flushable = DestinationStream & {
  flush?: (cb?: (err?: Error) => void) => void;
  flushSync?: () => void;
  end?: () => void;
};

function redactingStream(dest: DestinationStream): DestinationStream {
  const out = dest as Flushable;
  const wrapped: Flushable = { write: (line: string) => out.write(redactUrlCredentials(line)) };
  if (typeof out.flush === "function") wrapped.flush = (cb) => out.flush?.(cb);
  if (typeof out.flushSync === "function") wrapped.flushSync = () => out.flushSync?.();
  if (typeof out.end === "function") wrapped.end = () => out.end?.();
  return wrapped;
}

/** A logger that writes nowhere, for code paths given no logger. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}

export type { Logger };
