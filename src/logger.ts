import { type DestinationStream, type Logger, pino } from "pino";

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
    opts.destination,
  );
}

/** A logger that writes nowhere, for code paths given no logger. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}

export type { Logger };
