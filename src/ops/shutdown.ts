/**
 * Graceful shutdown on SIGTERM/SIGINT: runs the given steps once, in order (stop taking commands, finish
 * in-flight work, log out of arrays), logging each; a second signal exits at once.
 */
import type { Logger } from "../logger.js";

export interface ShutdownStep {
  name: string;
  run: () => Promise<void>;
}

export async function runShutdown(steps: readonly ShutdownStep[], logger: Logger): Promise<boolean> {
  let clean = true;
  for (const step of steps) {
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

/** Installs the handlers; `target` is `process` in production and a fake in tests. */
export function onShutdownSignals(
  target: SignalTarget,
  steps: readonly ShutdownStep[],
  logger: Logger,
): void {
  let stopping = false;
  const handle = (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, "second signal, exiting now");
      target.exit(1);
      return;
    }
    stopping = true;
    logger.info({ signal }, "shutting down");
    runShutdown(steps, logger).then(
      (clean) => target.exit(clean ? 0 : 1),
      () => target.exit(1),
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
