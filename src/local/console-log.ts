/**
 * The console's log lines: pino's JSON, redacted by the logger's one redaction, turned into one short line
 * ("warning: array fb-lab-01 is not answering (array=fb-lab-01)") and written by the console itself, above its
 * prompt, so a warning never breaks into the line being typed. Before a console attaches (the demo starting)
 * and after it ends, lines go to the fallback stream (stderr) in the same short form.
 */
import type { Writable } from "node:stream";
import type { DestinationStream } from "pino";

/** The logger writes level names; the console says "warning" where pino says "warn". */
const LEVELS: Readonly<Record<string, string>> = {
  trace: "trace",
  debug: "debug",
  info: "info",
  warn: "warning",
  error: "error",
  fatal: "fatal",
};
/** pino's own fields, which the short line does not repeat. */
const OWN = new Set(["level", "time", "pid", "hostname", "name", "msg", "v"]);

function shortValue(v: unknown): string {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 77)}…` : s;
}

/** One log line as people read it; a line that is not JSON passes unchanged. */
export function formatLogLine(line: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return line.trimEnd();
  }
  if (!parsed || typeof parsed !== "object") return line.trimEnd();
  const rec = parsed as Record<string, unknown>;
  const level = LEVELS[String(rec["level"])] ?? "log";
  const err = rec["err"] as { message?: unknown } | undefined;
  const context = Object.entries(rec)
    .filter(([k, v]) => !OWN.has(k) && k !== "err" && v !== undefined)
    .map(([k, v]) => `${k}=${shortValue(v)}`);
  const msg = String(rec["msg"] ?? (err?.message === undefined ? "" : String(err.message)));
  const because = err?.message !== undefined && rec["msg"] !== undefined ? `: ${String(err.message)}` : "";
  return `${level}: ${msg}${because}${context.length ? ` (${context.join(", ")})` : ""}`;
}

export interface ConsoleLogSink {
  /** The logger's destination. */
  readonly stream: DestinationStream;
  /** Routes lines to the console's own writer until the returned function is called. */
  attach(write: (text: string) => void): () => void;
}

export function consoleLogSink(fallback: Writable): ConsoleLogSink {
  let writer: ((text: string) => void) | undefined;
  return {
    stream: {
      write(line: string) {
        const text = formatLogLine(line);
        if (writer) writer(text);
        else fallback.write(`${text}\n`);
      },
    },
    attach(write) {
      writer = write;
      return () => {
        if (writer === write) writer = undefined;
      };
    },
  };
}
