/** A pino logger whose lines tests can read back (to assert what was logged, and what never was). */
import { createLogger, type Logger } from "../../src/logger.js";

export interface MemoryLogger {
  logger: Logger;
  lines: Record<string, unknown>[];
  /** Everything written, as one string (for "the token never appears" checks). */
  text(): string;
}

export function memoryLogger(level = "debug"): MemoryLogger {
  const raw: string[] = [];
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    level,
    destination: {
      write(s: string) {
        raw.push(s);
        lines.push(JSON.parse(s) as Record<string, unknown>);
      },
    },
  });
  return { logger, lines, text: () => raw.join("") };
}
