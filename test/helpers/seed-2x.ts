/**
 * What tests of REST 2.x-only families add to the demo's own seed (src/simulator/scenarios/demo-families.ts),
 * through the simulator's 2.x wire.
 */
import { collection } from "../../src/simulator/resources/generic.js";
import type { Harness } from "../core/harness.js";

function stateOf(harness: Harness, array: string) {
  const state = harness.sims.get(array)?.state;
  if (!state) throw new Error(`${array} is simulated`);
  return state;
}

/**
 * Creates `name` on `path` through the 2.x wire unless the array already has it (the demo seeds the same names
 * once the simulator models these families): then `patch`, when given, sets what the test needs of it.
 */
export async function ensure(
  harness: Harness,
  array: string,
  path: string,
  name: string,
  body: Record<string, unknown>,
  patch?: Record<string, unknown>,
): Promise<void> {
  const client = harness.pool.get(array);
  const all = await client.get<{ name?: string }>(path);
  if (!all.items.some((i) => i.name === name)) await client.post(path, { query: { names: name }, body });
  else if (patch) await client.patch(path, { query: { names: name }, body: patch });
}

/**
 * A maintenance window on `array` from `startsIn` for `lasts` ms (harness clock), created through the 2.x wire
 * with its timeout; where the generic collection keeps it, its created/expires are set as the array sets them.
 */
export async function maintenanceWindow(
  harness: Harness,
  array: string,
  name: string,
  startsIn: number,
  lasts: number,
): Promise<void> {
  await ensure(harness, array, "/maintenance-windows", name, { timeout: lasts });
  const item = collection(stateOf(harness, array), "/maintenance-windows").items.get(name);
  const now = harness.clock.now;
  if (item) Object.assign(item, { created: now + startsIn, expires: now + startsIn + lasts });
}
