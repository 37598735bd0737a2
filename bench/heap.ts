/**
 * Benchmarks whose process is the bot's (alerts polling, the soak) run with the image's heap settings
 * (src/ops/heap-options.ts), so their memory is what a deployment sees; what they fork (simulated arrays,
 * senders) is not the bot and runs with V8's own sizing.
 */
import { HEAP_OPTIONS } from "../src/ops/heap-options.js";

const heap: readonly string[] = HEAP_OPTIONS;

/** This process's Node flags without the bot's heap settings, for the children a bench forks. */
export function childExecArgv(): string[] {
  return process.execArgv.filter((a) => !heap.includes(a));
}
