/** A pino logger whose lines tests can read back (to assert what was logged, and what never was). */
import { EventEmitter } from "node:events";
import { createLogger, type Logger } from "../../src/logger.js";

export type LogLine = Record<string, unknown>;

export interface MemoryLogger {
  logger: Logger;
  lines: LogLine[];
  /** Everything written, as one string (for "the token never appears" checks). */
  text(): string;
  /** Resolves with the first line (already written or still to come) matching `pred`. */
  waitFor(pred: (line: LogLine) => boolean): Promise<LogLine>;
}

export function memoryLogger(level = "debug"): MemoryLogger {
  const raw: string[] = [];
  const lines: LogLine[] = [];
  const events = new EventEmitter();
  const logger = createLogger({
    level,
    destination: {
      write(s: string) {
        raw.push(s);
        const line = JSON.parse(s) as LogLine;
        lines.push(line);
        events.emit("line", line);
      },
    },
  });
  return {
    logger,
    lines,
    text: () => raw.join(""),
    waitFor(pred) {
      const found = lines.find(pred);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve) => {
        const check = (line: LogLine) => {
          if (!pred(line)) return;
          events.off("line", check);
          resolve(line);
        };
        events.on("line", check);
      });
    },
  };
}
