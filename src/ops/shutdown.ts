/**
 * Graceful shutdown on SIGTERM/SIGINT: runs the given steps once, in order (stop taking commands, finish
 * in-flight work, log out of arrays), logging each; a second signal exits at once. With a deadline, the stop
 * always ends: whatever a step waits on (a hung array, an unreachable Slack, a hung Redis), the process exits
 * when it comes, after `onDeadline` has said what was cut off (issue 44).
 */
import type { Logger } from "../logger.js";

export interface ShutdownStep {
  name: string;
  run: () => Promise<void>;
}

export async function runShutdown(
  steps: readonly ShutdownStep[],
  logger: Logger,
  onStep?: (name: string) => void,
): Promise<boolean> {
  let clean = true;
  for (const step of steps) {
    onStep?.(step.name);
    try {
      await step.run();
      logger.info({ step: step.name }, "shutdown step done");
    } catch (err) {
      clean = false;
      logger.error({ err, step: step.name }, "shutdown step failed");
    }
  }
  return clean;
}

export interface SignalTarget {
  once(signal: "SIGTERM" | "SIGINT", fn: () => void): unknown;
  exit(code: number): never | void;
}

export interface ShutdownDeadline {
  /** From the first signal to the forced exit. */
  ms: number;
  /**
   * Runs when the deadline comes with a step still running, before the exit: records what was cut off. Given
   * `boundMs` at most; the exit does not wait longer for it.
   */
  onDeadline?: (step: string) => Promise<void> | void;
  boundMs?: number;
}

/** Installs the handlers; `target` is `process` in production and a fake in tests. */
export function onShutdownSignals(
  target: SignalTarget,
  steps: readonly ShutdownStep[],
  logger: Logger,
  deadline?: ShutdownDeadline,
): void {
  let stopping = false;
  let exited = false;
  let timer: NodeJS.Timeout | undefined;
  const exit = (code: number) => {
    if (exited) return;
    exited = true;
    clearTimeout(timer);
    target.exit(code);
  };
  let current = "";
  const handle = (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, "second signal, exiting now");
      exit(1);
      return;
    }
    stopping = true;
    logger.info({ signal, ...(deadline ? { graceMs: deadline.ms } : {}) }, "shutting down");
    if (deadline)
      timer = setTimeout(() => {
        logger.error({ step: current, graceMs: deadline.ms }, "shutdown grace ran out: exiting now");
        const bound = new Promise<void>((resolve) => setTimeout(resolve, deadline.boundMs ?? 1000).unref());
        const said = Promise.resolve()
          .then(() => deadline.onDeadline?.(current))
          .catch((err: unknown) => logger.error({ err }, "could not record the work cut off by shutdown"));
        void Promise.race([said, bound]).then(() => exit(1));
      }, deadline.ms);
    runShutdown(steps, logger, (name) => {
      current = name;
    }).then(
      (clean) => exit(clean ? 0 : 1),
      () => exit(1),
    );
  };
  const again = (signal: "SIGTERM" | "SIGINT") => {
    target.once(signal, () => {
      handle(signal);
      again(signal);
    });
  };
  again("SIGTERM");
  again("SIGINT");
}
