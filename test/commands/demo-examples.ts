/** What the tests of /array help's examples share: the demo harness and the examples the demo cannot run. */
import { DEMO_ARRAYS } from "../../src/local/demo.js";
import { type Harness, startHarness } from "../core/harness.js";

/** The console's two demo arrays, fb-lab-01 the default. */
export function startDemoHarness(): Promise<Harness> {
  return startHarness({
    arrays: DEMO_ARRAYS.map((a) => ({ name: a.name, tags: [...a.tags], scenario: a.scenario })),
    config: { channels: { default_array: DEMO_ARRAYS[0].name } },
  });
}

/**
 * Changes the demo has already made, so their examples get a clear refusal (in a dry run and for real) rather
 * than a change: the demo's two arrays are connected, and that connection carries their replica links.
 */
export const DONE_ON_DEMO: Readonly<Record<string, RegExp>> = {
  "array-connection create fb-dr-01 --address 10.31.0.20 --array fb-lab-01": /already has a connection/,
  "array-connection create fb-dr-01 --address 10.31.0.20 --encrypted --array fb-lab-01":
    /already has a connection/,
  "array-connection delete fb-dr-01": /still carries \d+ replica links/,
};
