/**
 * What the 2.x families ask of a file system's life: whether it may be destroyed or eradicated (WORM retention,
 * legal holds: the array's rules, whichever wire the request came on), and what goes with it when eradicated
 * (its exports, its QoS and WORM memberships).
 */
import type { SimState } from "../state.js";
import { badRequest } from "../types.js";
import { holdRefusal } from "./legal-holds.js";
import { retentionRefusal } from "./worm-data-policies.js";

/** Throws the array's 400 when retention or a legal hold keeps `fs` from being destroyed or eradicated. */
export function checkRetained(state: SimState, fs: { name: string }): void {
  const why = retentionRefusal(state, fs) ?? holdRefusal(state, fs);
  if (why !== undefined) throw badRequest(why, fs.name);
}

export function forgetFileSystem(state: SimState, name: string): void {
  const exports = state.generic.get("/file-system-exports")?.items;
  for (const [key, e] of exports ?? [])
    if ((e["member"] as { name?: string } | undefined)?.name === name) exports?.delete(key);
  state.generic.get("/qos-policies/members")?.items.delete(`file-systems/${name}`);
  state.generic.get("/worm-data-policies/members")?.items.delete(name);
}
