/**
 * The access policy over the interface: for every METHOD + path of the endpoint table, the least role that may
 * send it and the class of harm it does, with overrides for the GETs that act or reveal (`*\/test` runs a test
 * or sends a message, `connection-key` and `keytabs/download` hand out credentials) and for query parameters
 * that change what a request reveals or does. Every request the bot sends is checked against this one table
 * (src/core/request-guard.ts), whatever command, button or raw call sends it; commands declare the endpoints
 * they send and the registry refuses a command whose role is below the table's (docs/security.md lists it).
 */
import { type DestructiveClass, ROLES, type Role, roleAtLeast } from "../vocabulary.js";
import { ENDPOINTS, type HttpMethod } from "./endpoints.js";
import { findEndpoint } from "./versions.js";

/** The role ladder: the ground floor's (src/vocabulary.ts). */
export type PolicyRole = Role;
/** The classes of harm the policy assigns: those of the ground floor's vocabulary it uses. */
export type PolicyClass = Extract<
  DestructiveClass,
  | "delete"
  | "eradicate"
  | "destroy"
  | "demote_file_system"
  | "delete_replication"
  | "remove_snapshot_rules"
  | "shrink_below_usage"
  | "array_settings"
>;

export interface PolicyRule {
  role: PolicyRole;
  cls: PolicyClass | null;
  /** Why the rule differs from the default for its method, when it does (shown in docs/security.md). */
  why?: string;
}

/** A query parameter that changes what a request reveals or does, when given a true value. */
export interface ParamRule {
  method: HttpMethod;
  path: string;
  param: string;
  /** "refuse": never sent from chat, whatever the role (`expose=true` shows API tokens). */
  role: PolicyRole | "refuse";
  cls: PolicyClass | null;
  why: string;
}

/**
 * Changes an operator may send: the day-to-day storage, protection, replication and object-store objects.
 * Every other change (network, identity, security, array settings, support) needs admin.
 */
const OPERATOR_CHANGES: readonly string[] = [
  "POST /file-systems",
  "PATCH /file-systems",
  "DELETE /file-systems",
  "POST /file-system-snapshots",
  "PATCH /file-system-snapshots",
  "DELETE /file-system-snapshots",
  "DELETE /file-system-snapshots/transfer",
  "POST /file-systems/policies",
  "DELETE /file-systems/policies",
  "POST /policies/file-systems",
  "DELETE /policies/file-systems",
  "POST /file-system-snapshots/policies",
  "DELETE /file-system-snapshots/policies",
  "POST /policies/file-system-snapshots",
  "DELETE /policies/file-system-snapshots",
  "POST /file-system-replica-links/policies",
  "DELETE /file-system-replica-links/policies",
  "POST /policies/file-system-replica-links",
  "DELETE /policies/file-system-replica-links",
  "POST /policies",
  "PATCH /policies",
  "DELETE /policies",
  "POST /file-system-replica-links",
  "POST /bucket-replica-links",
  "PATCH /bucket-replica-links",
  "DELETE /bucket-replica-links",
  "PATCH /array-connections",
  "PATCH /object-store-remote-credentials",
  "POST /buckets",
  "PATCH /buckets",
  "DELETE /buckets",
  "POST /object-store-accounts",
  "DELETE /object-store-accounts",
  "POST /object-store-users",
  "DELETE /object-store-users",
  "POST /object-store-access-keys",
  "PATCH /object-store-access-keys",
  "DELETE /object-store-access-keys",
  "POST /object-store-access-policies/object-store-users",
  "DELETE /object-store-access-policies/object-store-users",
  "POST /object-store-users/object-store-access-policies",
  "DELETE /object-store-users/object-store-access-policies",
  "POST /lifecycle-rules",
  "PATCH /lifecycle-rules",
  "DELETE /lifecycle-rules",
  "POST /quotas/users",
  "PATCH /quotas/users",
  "DELETE /quotas/users",
  "POST /quotas/groups",
  "PATCH /quotas/groups",
  "DELETE /quotas/groups",
  "PATCH /quotas/settings",
  "PATCH /alerts",
  "PATCH /hardware",
];

/** Paths whose changes are the array's own settings (a confirm at least). */
const SETTINGS_PATHS =
  /^\/(active-directory|admins|alert-watchers|api-clients|arrays|certificates|certificate-groups|directory-services|dns|hardware-connectors|link-aggregation-groups|network-interfaces|smtp|snmp-agents|snmp-managers|subnets|support|syslog-servers)(\/|$)/;

/** Rules that differ from what the method and path give by default. */
const OVERRIDES: Readonly<Record<string, PolicyRule>> = {
  "GET /array-connections/connection-key": {
    role: "admin",
    cls: null,
    why: "hands out the key that connects another array to this one",
  },
  "GET /keytabs/download": { role: "admin", cls: null, why: "hands out Kerberos key material" },
  "GET /active-directory/test": {
    role: "admin",
    cls: null,
    why: "runs the directory tests with the array's domain account",
  },
  "GET /directory-services/test": {
    role: "admin",
    cls: null,
    why: "binds to the directory servers with the array's credentials",
  },
  "PATCH /directory-services/test": {
    role: "admin",
    cls: null,
    why: "tests a directory configuration that is not saved",
  },
  "GET /alert-watchers/test": { role: "operator", cls: null, why: "sends test e-mails to the watchers" },
  "GET /snmp-managers/test": { role: "operator", cls: null, why: "sends test traps to the managers" },
  "GET /syslog-servers/test": { role: "operator", cls: null, why: "sends test messages to the servers" },
  "GET /support/test": { role: "operator", cls: null, why: "makes the array call Pure1 support" },
  "DELETE /admins/cache": { role: "admin", cls: null, why: "drops cached administrator logins" },
  "DELETE /file-systems": { role: "admin", cls: "eradicate", why: "eradicates: the data is gone for good" },
  "DELETE /file-system-snapshots": { role: "admin", cls: "eradicate", why: "eradicates the snapshot" },
  "DELETE /buckets": { role: "admin", cls: "eradicate", why: "eradicates the bucket and its objects" },
  "DELETE /array-connections": { role: "admin", cls: "delete_replication", why: "replication stops" },
  "DELETE /targets": { role: "admin", cls: "delete_replication", why: "replication to it stops" },
  "DELETE /bucket-replica-links": { role: "operator", cls: "delete_replication", why: "replication stops" },
  "DELETE /file-system-replica-links": { role: "admin", cls: "delete_replication", why: "replication stops" },
};

/** Query parameters that reveal or destroy, each with what it needs when its value is true. */
export const PARAM_RULES: readonly ParamRule[] = [
  {
    method: "GET",
    path: "/admins",
    param: "expose",
    role: "refuse",
    cls: null,
    why: "shows API tokens, the bot's own among them; never from chat",
  },
  {
    method: "GET",
    path: "/admins/cache",
    param: "refresh",
    role: "admin",
    cls: null,
    why: "makes the array look every cached administrator up again in the directory",
  },
  {
    method: "PATCH",
    path: "/policies",
    param: "destroy_snapshots",
    role: "operator",
    cls: "remove_snapshot_rules",
    why: "destroys the snapshots the removed rules made",
  },
  {
    method: "PATCH",
    path: "/file-systems",
    param: "discard_non_snapshotted_data",
    role: "operator",
    cls: "demote_file_system",
    why: "demoting discards data no replicated snapshot holds",
  },
  {
    method: "POST",
    path: "/file-systems",
    param: "discard_non_snapshotted_data",
    role: "operator",
    cls: "demote_file_system",
    why: "overwriting discards data no replicated snapshot holds",
  },
  {
    method: "POST",
    path: "/file-systems",
    param: "overwrite",
    role: "operator",
    cls: "destroy",
    why: "replaces an existing file system's data with the snapshot's",
  },
  {
    method: "PATCH",
    path: "/file-systems",
    param: "delete_link_on_eradication",
    role: "operator",
    cls: "delete_replication",
    why: "the replica link goes when the file system is eradicated",
  },
  {
    method: "PATCH",
    path: "/file-systems",
    param: "discard_detailed_permissions",
    role: "operator",
    cls: "destroy",
    why: "drops the file system's detailed permissions for good",
  },
  {
    method: "PATCH",
    path: "/file-systems",
    param: "ignore_usage",
    role: "operator",
    cls: "shrink_below_usage",
    why: "accepts a hard limit below what is stored",
  },
];

function defaultRule(method: HttpMethod, path: string): PolicyRule {
  if (method === "GET") return { role: "viewer", cls: null };
  const role: PolicyRole = OPERATOR_CHANGES.includes(`${method} ${path}`) ? "operator" : "admin";
  const cls: PolicyClass | null =
    method === "DELETE"
      ? "delete"
      : method === "PATCH" && SETTINGS_PATHS.test(path)
        ? "array_settings"
        : null;
  return { role, cls };
}

/** The rule for METHOD + path, before query parameters; undefined for a path the table does not have. */
export function endpointRule(method: HttpMethod, path: string): PolicyRule | undefined {
  if (!findEndpoint(method, path)) return undefined;
  return OVERRIDES[`${method} ${path}`] ?? defaultRule(method, path);
}

/**
 * Whether a query value turns its flag on, as the array would read it: anything but an explicit false. Unsure
 * spellings count as on, so a parameter that reveals or destroys is never let through by a spelling we did not
 * think of.
 */
export function flagOn(value: unknown): boolean {
  if (value === undefined || value === false) return false;
  const text = (Array.isArray(value) ? value.join(",") : String(value)).trim().toLowerCase();
  return !(text === "false" || text === "0" || text === "no" || text === "off");
}

export interface RequestVerdict {
  /** The least role; "refuse" when no role may send it from chat. */
  role: PolicyRole | "refuse";
  cls: PolicyClass | null;
  /** What made it stricter than the method and path alone, for the refusal. */
  reason?: string;
}

/** The verdict for one request: its endpoint's rule, raised by any revealing or destroying query parameter. */
export function requestRule(
  method: HttpMethod,
  path: string,
  query: Readonly<Record<string, unknown>> = {},
): RequestVerdict | undefined {
  const base = endpointRule(method, path);
  if (!base) return undefined;
  let verdict: RequestVerdict = { role: base.role, cls: base.cls };
  const keys = new Map(Object.keys(query).map((k) => [k.toLowerCase(), k]));
  for (const p of PARAM_RULES) {
    if (p.method !== method || p.path !== path) continue;
    const key = keys.get(p.param);
    if (key === undefined || !flagOn(query[key])) continue;
    const why = `\`${p.param}\` ${p.why}`;
    if (p.role === "refuse") return { role: "refuse", cls: p.cls, reason: why };
    if (verdict.role !== "refuse" && !roleAtLeast(verdict.role, p.role))
      verdict = { ...verdict, role: p.role, reason: why };
    if (p.cls && !verdict.cls) verdict = { ...verdict, cls: p.cls, reason: verdict.reason ?? why };
  }
  return verdict;
}

/** Every row of the table, in the endpoint table's order (docs/security.md, the sweeps). */
export function policyTable(): { method: HttpMethod; path: string; rule: PolicyRule }[] {
  return ENDPOINTS.filter((e) => e.versioned).map((e) => ({
    method: e.method,
    path: e.path,
    rule: endpointRule(e.method, e.path) as PolicyRule,
  }));
}

/** True when `have` is at least `need` on the policy's ladder. */
export function policyAllows(have: PolicyRole | undefined, need: PolicyRole | "refuse"): boolean {
  return need !== "refuse" && roleAtLeast(have, need);
}

/** The least role any endpoint of `method` needs: what a raw call of that method must have to be considered. */
export function leastRole(method: HttpMethod): PolicyRole {
  const roles = policyTable()
    .filter((r) => r.method === method)
    .map((r) => r.rule.role);
  return ROLES.find((r) => roles.includes(r)) ?? "admin";
}
