/**
 * The access policy over the interface: for every operation of the table of both generations (operations.ts),
 * keyed by its canonical METHOD + path, the least role that may send it and the class of harm it does, with overrides for the GETs that act or reveal (`*\/test` runs a test
 * or sends a message, `connection-key` and `keytabs/download` hand out credentials) and for query parameters
 * that change what a request reveals or does. Every request the bot sends is checked against this one table
 * (src/core/requests/request-guard.ts), whatever command, button or raw call sends it; commands declare the endpoints
 * they send and the registry refuses a command whose role is below the table's (docs/security.md lists it).
 * A raw request is read in canonical terms first (dialect.ts, canonicalRequest), so a path or parameter renamed
 * between generations meets the same rule. The rules themselves are data (policy-rules.ts).
 */
import { type DestructiveClass, ROLES, type Role, roleAtLeast } from "../vocabulary.js";
import { canonicalNames, canonicalRequest } from "./dialect.js";
import type { HttpMethod } from "./endpoints.js";
import { findOperation, OPERATIONS, type Operation } from "./operations.js";
import { OPERATOR_CHANGES, OVERRIDES, PARAM_RULES, SETTINGS_PATHS } from "./policy-rules.js";
import type { ApiVersion } from "./versions.js";

export { PARAM_RULES };

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
 * The default for an operation by method and family: reads need viewer; changes need admin unless the data names
 * them an operator's (OPERATOR_CHANGES), which no 2.x-only operation is unless added there.
 */
function defaultRule(method: HttpMethod, path: string): PolicyRule {
  if (method === "GET") return { role: "viewer", cls: null };
  const role: PolicyRole = OPERATOR_CHANGES.includes(`${method} ${path}`) ? "operator" : "admin";
  const cls: PolicyClass | null =
    method === "DELETE"
      ? "delete"
      : (method === "PATCH" || method === "PUT") && SETTINGS_PATHS.test(path)
        ? "array_settings"
        : null;
  return { role, cls };
}

/**
 * Every versioned operation's rule, made once. Start-up fails here when a rule of the data names no operation of
 * the table (a typo or a renamed path would otherwise leave a request under the default).
 */
const RULES: ReadonlyMap<Operation, PolicyRule> = (() => {
  const stale = [
    ...OPERATOR_CHANGES,
    ...Object.keys(OVERRIDES),
    ...PARAM_RULES.map((p) => `${p.method} ${p.path}`),
  ].filter((key) => {
    const [method, path] = key.split(" ") as [HttpMethod, string];
    return findOperation(method, path)?.path !== path;
  });
  if (stale.length > 0)
    throw new Error(`access policy rules name no canonical operation of the table: ${stale.join(", ")}`);
  const rules = new Map<Operation, PolicyRule>();
  for (const op of OPERATIONS) {
    if (!op.versioned) continue;
    rules.set(op, OVERRIDES[`${op.method} ${op.path}`] ?? defaultRule(op.method, op.path));
  }
  return rules;
})();

/** The parameter rules of each operation, by canonical parameter name. */
const PARAM_RULES_BY_OP: ReadonlyMap<Operation, ReadonlyMap<string, ParamRule>> = (() => {
  const out = new Map<Operation, Map<string, ParamRule>>();
  for (const p of PARAM_RULES) {
    const op = findOperation(p.method, p.path) as Operation;
    const rules = out.get(op) ?? new Map<string, ParamRule>();
    rules.set(p.param, p);
    out.set(op, rules);
  }
  return out;
})();

/**
 * The rule for METHOD + path (canonical, 1.x or 2.x, with or without its `/api/<version>` prefix), before query
 * parameters; undefined for a path the table does not have.
 */
export function endpointRule(method: HttpMethod, path: string): PolicyRule | undefined {
  const req = canonicalRequest(method, path);
  return req && RULES.get(req.op);
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

/**
 * The verdict for one request: its operation's rule, raised by any revealing or destroying query parameter. The
 * request is read in canonical terms (names lower-cased, then each generation's renames), with `version` when the
 * caller knows the array's (else both generations' readings count).
 */
export function requestRule(
  method: HttpMethod,
  path: string,
  query: Readonly<Record<string, unknown>> = {},
  version?: ApiVersion,
): RequestVerdict | undefined {
  const req = canonicalRequest(method, path, {}, version);
  const base = req && RULES.get(req.op);
  if (!req || !base) return undefined;
  let verdict: RequestVerdict = { role: base.role, cls: base.cls };
  const rules = PARAM_RULES_BY_OP.get(req.op);
  if (!rules) return verdict;
  for (const [key, value] of Object.entries(query)) {
    if (!flagOn(value)) continue;
    // Named as the caller named it (`expose` on 1.x), ruled by its canonical name (`expose_api_token`).
    for (const name of canonicalNames(req.op, key.toLowerCase(), req.version)) {
      const p = rules.get(name);
      if (!p) continue;
      const why = `\`${key}\` ${p.why}`;
      if (p.role === "refuse") return { role: "refuse", cls: p.cls, reason: why };
      if (verdict.role !== "refuse" && !roleAtLeast(verdict.role, p.role))
        verdict = { ...verdict, role: p.role, reason: why };
      if (p.cls && !verdict.cls) verdict = { ...verdict, cls: p.cls, reason: verdict.reason ?? why };
    }
  }
  return verdict;
}

/** Every row of the table, canonical, in the table's order (docs/security.md, the sweeps). */
export function policyTable(): { method: HttpMethod; path: string; op: Operation; rule: PolicyRule }[] {
  return [...RULES].map(([op, rule]) => ({ method: op.method, path: op.path, op, rule }));
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
