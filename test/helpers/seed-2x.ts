/**
 * The demo's seed of REST 2.x-only families (the names issue 42's helpers share), for tests on arrays that speak
 * 2.x: created through the simulator's 2.x wire where the operation's create takes `names` (policies, holds),
 * and in the simulator's own collections where it does not (rules, exports, members, held entities), until the
 * simulator models these families and seeds the demo with them.
 */
import { collection } from "../../src/simulator/resources/generic.js";
import type { Harness } from "../core/harness.js";

function stateOf(harness: Harness, array: string) {
  const state = harness.sims.get(array)?.state;
  if (!state) throw new Error(`${array} is simulated`);
  return state;
}

/** The demo's export policies on `array` (a 2.x one). */
export async function seedExportPolicies(harness: Harness, array: string): Promise<void> {
  await harness.pool
    .get(array)
    .post("/nfs-export-policies", { query: { names: "default,lab-clients" }, body: {} });
  const state = stateOf(harness, array);
  const rules = collection(state, "/nfs-export-policies/rules");
  const rule = (policy: string, index: number, client: string, permission: string, access: string) =>
    rules.items.set(`${policy}.${index}`, {
      name: `${policy}.${index}`,
      id: state.newId(),
      policy: { name: policy },
      index,
      client,
      permission,
      access,
    });
  // Kept out of order on purpose: the array applies them by index.
  rule("lab-clients", 2, "*.build.example.com", "ro", "root-squash");
  rule("lab-clients", 1, "10.20.0.0/16", "rw", "no-root-squash");
  rule("default", 1, "*", "ro", "root-squash");
  const exports = collection(state, "/file-system-exports");
  for (const [fs, policy] of [
    ["home", "default"],
    ["projects", "lab-clients"],
  ] as const)
    exports.items.set(fs, {
      name: fs,
      id: state.newId(),
      export_name: fs,
      member: { name: fs },
      policy: { name: policy },
      policy_type: "nfs",
      enabled: true,
    });
}

/** Policy members (`{policy, member}` items) of a 2.x members path, as the array lists them. */
export function seedMembers(
  harness: Harness,
  array: string,
  path: string,
  members: readonly { policy: string; member: string; type: string }[],
): void {
  const state = stateOf(harness, array);
  const items = collection(state, path).items;
  for (const m of members)
    items.set(`${m.policy}/${m.member}`, {
      id: state.newId(),
      policy: { name: m.policy },
      member: { name: m.member, resource_type: m.type },
    });
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
