/** The harness most command test files start once for all their tests. */
import { afterAll, beforeAll } from "vitest";
import type { Simulator } from "../../src/simulator/index.js";
import { type Harness, type HarnessOptions, startHarness } from "./harness.js";

export type FileHarness = Harness & {
  /** The simulator called `name`; a test naming one the harness lacks fails here. */
  sim(name?: string): Simulator;
};

/**
 * One harness for a test file, started before its tests and closed after them. The object is filled in by
 * `beforeAll`, so a file declares it once at the top and its tests use it as they would the harness itself.
 */
export function fileHarness(opts?: HarnessOptions): FileHarness {
  const h = {
    sim(name = "lab-1") {
      const s = h.sims.get(name);
      if (!s) throw new Error(`no simulator ${name}`);
      return s;
    },
  } as FileHarness;
  beforeAll(async () => {
    Object.assign(h, await startHarness(opts));
  });
  // A harness that failed to start has nothing to close; its own error is the one to see.
  afterAll(async () => {
    if ("close" in h) await h.close();
  });
  return h;
}
