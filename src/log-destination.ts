/**
 * Where log lines go: a stream written without ever blocking the event loop, behind a bounded buffer (issue 44).
 *
 * pino's own destination on fd 1 writes synchronously and, when the pipe is full (a log shipper that stopped
 * reading) or gone, sleeps and retries forever (`SonicBoom.flushSync` on EAGAIN and EPIPE): the bot stopped
 * answering and ignored SIGTERM. Here a line is handed to Node's asynchronous stream (stdout on a pipe is one)
 * only while what it still holds is under `maxBufferBytes`; past that the line is dropped and counted, and the
 * next line that gets out carries the count (`log_lines_dropped`). A stream that failed (EPIPE: the reader died)
 * takes nothing more: every later line is counted as dropped, never retried.
 */
import type { DestinationStream } from "pino";

/** The part of a Node writable stream the destination uses (process.stdout in production). */
export interface LogSink {
  write(chunk: string, cb: (err?: Error | null) => void): boolean;
  readonly writableLength: number;
  readonly destroyed?: boolean;
  once(event: "drain", fn: () => void): unknown;
  on(event: "error", fn: (err: Error) => void): unknown;
  off?(event: "drain", fn: () => void): unknown;
}

export interface LogDestination extends DestinationStream {
  /** Lines dropped so far (buffer full, or the stream failed). */
  dropped(): number;
  /** Resolves once the stream holds nothing more, or after `timeoutMs`, whichever is first; never throws. */
  flush(timeoutMs: number): Promise<void>;
}

/** 1 MiB: minutes of ordinary logging, and a bound on what a stalled reader can cost in memory. */
export const DEFAULT_LOG_BUFFER_BYTES = 1 << 20;

export function asyncDestination(sink: LogSink, maxBufferBytes = DEFAULT_LOG_BUFFER_BYTES): LogDestination {
  let dropped = 0;
  /** Dropped lines not yet reported in a line that got out. */
  let unreported = 0;
  let failed = false;
  // Without a listener an EPIPE would be thrown as an uncaught exception and end the process.
  sink.on("error", () => {
    failed = true;
  });
  const drop = () => {
    dropped++;
    unreported++;
  };
  return {
    write(line: string) {
      if (failed || sink.destroyed === true || sink.writableLength + line.length > maxBufferBytes) {
        drop();
        return;
      }
      const out = unreported > 0 ? withDropped(line, unreported) : line;
      unreported = 0;
      // A line still queued when the stream fails is lost too: counted, so the counter tells the whole story.
      sink.write(out, (err) => {
        if (err) {
          failed = true;
          drop();
        }
      });
    },
    dropped: () => dropped,
    flush(timeoutMs) {
      if (failed || sink.writableLength === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          sink.off?.("drain", done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        timer.unref();
        sink.once("drain", done);
      });
    },
  };
}

/** The line with `"log_lines_dropped": n` added: the count reaches whoever reads the log, in the log itself. */
function withDropped(line: string, n: number): string {
  const end = line.lastIndexOf("}");
  if (!line.startsWith("{") || end < 0) return `(${n} log lines dropped) ${line}`;
  const inner = line.slice(1, end).trim();
  return `{${inner}${inner ? "," : ""}"log_lines_dropped":${n}}${line.slice(end + 1)}`;
}
