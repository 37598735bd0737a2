/**
 * What the 2.x families ask of a file system's life: whether it may be destroyed or eradicated (WORM retention,
 * legal holds: the array's rules, whichever wire the request came on), and what goes with it when eradicated
 * (its exports, its QoS and WORM memberships).
 */
import { atLeast, generationOf } from "../../rest-spec/versions.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { holdRefusal } from "./legal-holds.js";
import { nodeGroupOf } from "./node-groups.js";
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
  state.generic.get("/node-groups/uses")?.items.delete(name);
}

type Ref = { name: string; id: string; resource_type: string } | null;

function exportOf(state: SimState, fsName: string, type: string): Record<string, unknown> | undefined {
  for (const e of state.generic.get("/file-system-exports")?.items.values() ?? [])
    if ((e["member"] as { name?: string }).name === fsName && e["policy_type"] === type) return e;
  return undefined;
}

/**
 * A 2.x file system's references to these families, as the FileSystem model carries them: `qos_policy` (2.17+),
 * `node_group` (2.18+),
 * `nfs.export_policy` (2.3+) and `smb.client_policy` / `smb.share_policy` (2.10+), read from its QoS membership
 * and its exports. 1.x has none of them.
 */
export function withFamilies(
  state: SimState,
  version: string,
  fs: Record<string, unknown>,
): Record<string, unknown> {
  if (generationOf(version) !== 2) return fs;
  const name = String(fs["name"]);
  const out: Record<string, unknown> = { ...fs };
  if (atLeast(version, "2.17")) {
    const m = state.generic.get("/qos-policies/members")?.items.get(`file-systems/${name}`);
    out["qos_policy"] = (m?.["policy"] as Ref | undefined) ?? null;
  }
  if (atLeast(version, "2.18")) out["node_group"] = nodeGroupOf(state, name);
  const nfs = exportOf(state, name, "nfs");
  if (atLeast(version, "2.3") && fs["nfs"])
    out["nfs"] = { ...(fs["nfs"] as object), export_policy: (nfs?.["policy"] as Ref | undefined) ?? null };
  const smb = exportOf(state, name, "smb");
  if (atLeast(version, "2.10") && fs["smb"])
    out["smb"] = {
      ...(fs["smb"] as object),
      client_policy: (smb?.["policy"] as Ref | undefined) ?? null,
      share_policy: (smb?.["share_policy"] as Ref | undefined) ?? null,
    };
  return out;
}

/** The WORM data policies a 2.x create names in `policy_names` (or `policy_ids`), each checked to exist. */
export function wormPoliciesOnCreate(req: SimRequest, state: SimState): string[] {
  const policies = state.generic.get("/worm-data-policies")?.items ?? new Map();
  const byName = req.query.list("policy_names")?.filter((n) => n !== "") ?? [];
  const byId = req.query.list("policy_ids")?.filter((n) => n !== "") ?? [];
  const names = [
    ...byName,
    ...byId.map(
      (id) => ([...policies.values()].find((p) => p["id"] === id)?.["name"] as string | undefined) ?? id,
    ),
  ];
  for (const n of names) if (!policies.has(n)) throw badRequest(`WORM data policy '${n}' does not exist.`, n);
  if (names.length > 1) throw badRequest("A file system takes one WORM data policy.");
  return names;
}
