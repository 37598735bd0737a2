import { type DestinationStream, type Logger, pino } from "pino";
import { redactUrlCredentials } from "./redact.js";

/**
 * Paths pino blanks in every log line. Tokens and session ids must never reach a log: API tokens, the array
 * session token (x-auth-token), Slack tokens and signing secrets, passwords.
 */
export const REDACT_PATHS = [
  "token",
  "apiToken",
  "api_token",
  "sessionToken",
  "password",
  "secret",
  "secret_access_key",
  "signingSecret",
  "botToken",
  "appToken",
  "authorization",
  "headers.authorization",
  'headers["api-token"]',
  'headers["x-auth-token"]',
  "*.token",
  "*.apiToken",
  "*.api_token",
  "*.sessionToken",
  "*.password",
  "*.secret",
  "*.secret_access_key",
  "*.signingSecret",
  "*.botToken",
  "*.appToken",
  "*.authorization",
  '*.headers["api-token"]',
  '*.headers["x-auth-token"]',
  '*["api-token"]',
  '*["x-auth-token"]',
];

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
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    },
    redactingStream(opts.destination ?? pino.destination(1)),
  );
}

/**
 * Paths cannot catch a password inside a URL in a message or an error text, so each finished line is also
 * passed through redactUrlCredentials before it is written.
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
