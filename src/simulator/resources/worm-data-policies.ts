/**
 * WORM data policies (2.15+) and the file systems they retain. The array's rules kept here: retentions are in
 * milliseconds with min ≤ default ≤ max; `mode` is `compliance` or `regular`, `retention_lock` `locked` or
 * `unlocked`; a locked policy cannot be unlocked, shortened, deleted or lose its members; a policy with members
 * cannot be deleted. A retained file system (compliance mode, or a locked policy) cannot be destroyed or
 * eradicated before its retention ends (`retentionRefusal`, asked by the file system rules on both wires).
 */
import { nameProblem } from "../../rest-spec/names.js";
import type { Json } from "../models/body.js";
import { bodyObject } from "../models/body.js";
import type { FileSystemRec } from "../models/file-system.js";
import type { SimState } from "../state.js";
import { badRequest } from "../types.js";
import { EMPTY, type Handler, listing, ok, requireList, selectByNamesOrIds } from "./common.js";
import { arrayRef, oneOf, onlyFields, type Rec, records, refOf } from "./family-store.js";

export const WORM = "/worm-data-policies";
/** Members keyed by file system name, each with the time its retention started (`since`, not shown). */
const MEMBERS = "/worm-data-policies/members";
const RETENTIONS = ["min_retention", "default_retention", "max_retention"] as const;
const FIELDS = ["enabled", "mode", "retention_lock", ...RETENTIONS];

function check(next: Json, before?: Json): void {
  oneOf(next["mode"], ["compliance", "regular"], "mode");
  oneOf(next["retention_lock"], ["locked", "unlocked"], "retention_lock");
  for (const f of RETENTIONS) {
    const v = next[f];
    if (!(Number.isInteger(v) && (v as number) >= 0))
      throw badRequest(`'${f}' must be a whole number of milliseconds; got ${JSON.stringify(v)}.`, f);
  }
  const [min, def, max] = RETENTIONS.map((f) => next[f] as number);
  if (!((min as number) <= (def as number) && (def as number) <= (max as number)))
    throw badRequest("Retentions must satisfy min_retention ≤ default_retention ≤ max_retention.");
  if (before?.["retention_lock"] !== "locked") return;
  if (next["retention_lock"] !== "locked")
    throw badRequest(
      `WORM data policy '${String(before["name"])}' is locked; a locked retention cannot be unlocked.`,
    );
  for (const f of RETENTIONS)
    if ((next[f] as number) < (before[f] as number))
      throw badRequest(`WORM data policy '${String(before["name"])}' is locked; '${f}' can only grow.`, f);
  if (next["mode"] !== before["mode"])
    throw badRequest(
      `WORM data policy '${String(before["name"])}' is locked; its mode cannot change.`,
      "mode",
    );
}

const YEAR = 365 * 86_400_000;

const listPolicies: Handler = (req, state) =>
  listing([...records(state, WORM).values()], req, { noun: "WORM data policy" });

const createPolicies: Handler = (req, state) => {
  const names = requireList(req, "names");
  const body = bodyObject(req, "WormDataPolicy", true);
  onlyFields(body, FIELDS, "WormDataPolicy");
  const made = names.map((name) => {
    const problem = nameProblem(name);
    if (problem) throw badRequest(`'${name}' is not a valid name (${problem}).`, name);
    if (records(state, WORM).has(name)) throw badRequest(`WORM data policy '${name}' already exists.`, name);
    const p: Rec = {
      name,
      id: state.newId(),
      enabled: true,
      is_local: true,
      location: arrayRef(state),
      policy_type: "worm-data",
      realms: [],
      context: arrayRef(state),
      mode: "compliance",
      retention_lock: "unlocked",
      min_retention: YEAR,
      default_retention: YEAR,
      max_retention: 100 * YEAR,
      ...body,
    };
    check(p);
    return p;
  });
  for (const p of made) records(state, WORM).set(p.name, p);
  return ok(made);
};

const updatePolicies: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, records(state, WORM), "WORM data policy") as Rec[];
  const body = bodyObject(req, "WormDataPolicy");
  onlyFields(body, FIELDS, "WormDataPolicy");
  const next = targets.map((p) => ({ ...p, ...body }) as Rec);
  next.forEach((n, i) => {
    check(n, targets[i]);
  });
  targets.forEach((p, i) => {
    Object.assign(p, next[i]);
  });
  return ok(targets);
};

function membersOf(state: SimState, policy: Rec): Rec[] {
  return [...records(state, MEMBERS).values()].filter((m) => (m["policy"] as Json)["id"] === policy.id);
}

const deletePolicies: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, records(state, WORM), "WORM data policy") as Rec[];
  for (const p of targets) {
    if (p["retention_lock"] === "locked")
      throw badRequest(`WORM data policy '${p.name}' is locked and cannot be deleted.`, p.name);
    const used = membersOf(state, p);
    if (used.length > 0)
      throw badRequest(
        `WORM data policy '${p.name}' retains file system ${used.map((m) => `'${m.name}'`).join(", ")}.`,
        p.name,
      );
  }
  for (const p of targets) records(state, WORM).delete(p.name);
  return EMPTY;
};

/** A file system joins a WORM data policy (on arrays, as it is created with `policy_names`): retention starts now. */
export function applyWormPolicy(state: SimState, policyName: string, fs: FileSystemRec): void {
  const policy = records(state, WORM).get(policyName);
  if (!policy) throw badRequest(`WORM data policy '${policyName}' does not exist.`, policyName);
  if (records(state, MEMBERS).has(fs.name))
    throw badRequest(`File system '${fs.name}' already has a WORM data policy.`, fs.name);
  records(state, MEMBERS).set(fs.name, {
    name: fs.name,
    id: fs.id,
    since: state.clock(),
    member: refOf(fs, "file-systems"),
    policy: refOf(policy, "worm-data-policies"),
    context: arrayRef(state),
  });
}

function render(m: Json): Json {
  const { name: _n, id: _i, since: _s, ...shown } = m;
  return shown;
}

const listMembers: Handler = (req, state) => {
  const policies = req.query.list("policy_names");
  const members = req.query.list("member_names");
  const rows = [...records(state, MEMBERS).values()].filter(
    (m) =>
      (!policies || policies.includes(String((m["policy"] as Json)["name"]))) &&
      (!members || members.includes(m.name)),
  );
  return listing(rows.map(render), req, { noun: "WORM data policy member", nameParams: [] });
};

export const WORM_ROUTES = {
  [WORM]: { GET: listPolicies, POST: createPolicies, PATCH: updatePolicies, DELETE: deletePolicies },
  [MEMBERS]: { GET: listMembers },
  "/file-systems/worm-data-policies": { GET: listMembers },
};

/**
 * Why destroying or eradicating `fs` is refused by retention, or undefined. Retained until the policy's
 * `default_retention` after the file system joined it (the newest file's retention, as the array counts it).
 */
export function retentionRefusal(state: SimState, fs: { name: string }): string | undefined {
  const m = state.generic.get(MEMBERS)?.items.get(fs.name);
  if (!m) return undefined;
  const policy = records(state, WORM).get(String((m["policy"] as Json)["name"]));
  if (!policy || policy["enabled"] === false) return undefined;
  if (policy["mode"] !== "compliance" && policy["retention_lock"] !== "locked") return undefined;
  const until = (m["since"] as number) + (policy["default_retention"] as number);
  if (state.clock() >= until) return undefined;
  return `File system '${fs.name}' is retained by WORM data policy '${policy.name}' until ${new Date(until).toISOString()}; it cannot be destroyed or eradicated before its retention ends.`;
}
