/**
 * Bolt and its clients log through @slack/logger's interface; this feeds them into our pino logger. Bolt
 * never goes below INFO here: at DEBUG the socket-mode client logs whole payloads, which can carry
 * response URLs and user text.
 */
import { type Logger as BoltLogger, LogLevel } from "@slack/bolt";
import type { Logger } from "../logger.js";

const ORDER: readonly LogLevel[] = [LogLevel.DEBUG, LogLevel.INFO, LogLevel.WARN, LogLevel.ERROR];

function split(args: unknown[]): [Record<string, unknown>, string] {
  const err = args.find((a): a is Error => a instanceof Error);
  const text = args
    .filter((a) => !(a instanceof Error))
    .map((a) => (typeof a === "string" ? a : JSON.stringify(a)))
    .join(" ");
  return [err === undefined ? {} : { err }, text || (err?.message ?? "")];
}

export function boltLogger(base: Logger, level: LogLevel = LogLevel.INFO): BoltLogger {
  const log = base.child({ component: "bolt" });
  let current: LogLevel = ORDER.indexOf(level) < ORDER.indexOf(LogLevel.INFO) ? LogLevel.INFO : level;
  const enabled = (l: LogLevel) => ORDER.indexOf(l) >= ORDER.indexOf(current);
  return {
    debug: (...args: unknown[]) => {
      if (enabled(LogLevel.DEBUG)) log.debug(...split(args));
    },
    info: (...args: unknown[]) => {
      if (enabled(LogLevel.INFO)) log.info(...split(args));
    },
    warn: (...args: unknown[]) => {
      if (enabled(LogLevel.WARN)) log.warn(...split(args));
    },
    error: (...args: unknown[]) => {
      if (enabled(LogLevel.ERROR)) log.error(...split(args));
    },
    setLevel: (l: LogLevel) => {
      current = ORDER.indexOf(l) < ORDER.indexOf(LogLevel.INFO) ? LogLevel.INFO : l;
    },
    getLevel: () => current,
    // Bolt renames the shared logger per component; the pino binding above already says where lines come from.
    setName: () => {},
  };
}
