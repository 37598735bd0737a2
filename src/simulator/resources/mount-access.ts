/**
 * "An export policy decides which client may mount": the array's answer to "may client X mount file system Y,
 * and how?", from the records the REST interface serves (exports, their NFS export policies and rules). As
 * Purity evaluates them: the file system must exist, not be destroyed and serve NFS; an enabled export of it
 * names an enabled policy; that policy's rules are read in `index` order and the first whose `client` matches
 * decides (`permission` rw/ro, `access` squash). No export or no matching rule: no mount. Tests ask it through
 * the control interface (`POST /_control/mount-access`); the bot computes the same from what it reads.
 */

import type { Json } from "../models/body.js";
import { type Client, clientMatches } from "../models/client-match.js";
import type { SimState } from "../state.js";
import { EXPORTS, NFS_EXPORT } from "./export-policies.js";
import { records } from "./family-store.js";
import { rulesOf } from "./rule-policies.js";

export interface MountAnswer {
  allowed: boolean;
  /** "rw" or "ro" when allowed. */
  permission?: string;
  /** "root-squash", "all-squash" or "no-squash" when allowed. */
  access?: string;
  export?: string;
  policy?: string;
  rule?: string;
  index?: number;
  /** Why, in a sentence. */
  reason: string;
}

export function mountAccess(state: SimState, fileSystem: string, client: Client): MountAnswer {
  const who = client.hostname ?? client.ip ?? "the client";
  const fs = state.fileSystems.get(fileSystem);
  if (!fs || fs.destroyed) return { allowed: false, reason: `File system '${fileSystem}' does not exist.` };
  if (!fs.nfs.v3_enabled && !fs.nfs.v4_1_enabled)
    return { allowed: false, reason: `File system '${fileSystem}' does not serve NFS.` };
  const exports = [...records(state, EXPORTS).values()].filter(
    (e) =>
      e["policy_type"] === "nfs" && e["enabled"] !== false && (e["member"] as Json)["name"] === fileSystem,
  );
  if (exports.length === 0)
    return { allowed: false, reason: `File system '${fileSystem}' has no NFS export.` };
  const policies = records(state, NFS_EXPORT.path);
  for (const e of exports) {
    const policy = policies.get(String((e["policy"] as Json)["name"]));
    if (!policy || policy["enabled"] === false) continue;
    const rules = [...rulesOf(policy)].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    const rule = rules.find((r) => clientMatches(String(r["client"]), client));
    if (!rule) continue;
    const permission = String(rule["permission"]);
    return {
      allowed: true,
      permission,
      access: String(rule["access"]),
      export: e.name,
      policy: policy.name,
      rule: rule.name,
      ...(rule.index !== undefined ? { index: rule.index } : {}),
      reason: `Rule ${rule.index} of policy '${policy.name}' (client '${String(rule["client"])}') lets ${who} mount export '${e.name}' ${permission}.`,
    };
  }
  return {
    allowed: false,
    reason: `No rule of the export policies of '${fileSystem}' (${exports.map((e) => `'${String((e["policy"] as Json)["name"])}'`).join(", ")}) matches ${who}.`,
  };
}
