/**
 * QoS policies (2.17+) and their members, file systems and buckets (2.19+). The array's rules kept here: limits
 * are whole numbers, 0 meaning no limit; an object is in at most one QoS policy; a policy with members cannot be
 * deleted; and a limit shapes the performance the array reports for its members: a member's bytes and
 * operations per second never exceed the policy's `max_total_bytes_per_sec` / `max_total_ops_per_sec`, so a
 * throttled workload shows up flat-topped at the limit (object-performance.ts asks `shapeByQos`).
 */
import { nameProblem } from "../../rest-spec/names.js";
import type { Json } from "../models/body.js";
import { bodyObject } from "../models/body.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { EMPTY, type Handler, listing, ok, requireList, selectByNamesOrIds } from "./common.js";
import { arrayRef, onlyFields, type Rec, records, refOf } from "./family-store.js";

export const QOS = "/qos-policies";
/** Memberships, keyed `resource_type/name` (an object is in at most one QoS policy). */
const MEMBERS = "/qos-policies/members";
const LIMITS = ["max_total_bytes_per_sec", "max_total_ops_per_sec"] as const;
type MemberType = "file-systems" | "buckets";

function checkLimits(body: Json): void {
  for (const f of LIMITS) {
    const v = body[f];
    if (v !== undefined && !(Number.isInteger(v) && (v as number) >= 0))
      throw badRequest(
        `'${f}' must be a whole number of at least 0 (0: no limit); got ${JSON.stringify(v)}.`,
        f,
      );
  }
}

const FIELDS = ["enabled", ...LIMITS];

const listPolicies: Handler = (req, state) =>
  listing([...records(state, QOS).values()], req, { noun: "QoS policy" });

const createPolicies: Handler = (req, state) => {
  const names = requireList(req, "names");
  const body = bodyObject(req, "QosPolicy", true);
  onlyFields(body, FIELDS, "QosPolicy");
  checkLimits(body);
  for (const n of names) {
    const problem = nameProblem(n);
    if (problem) throw badRequest(`'${n}' is not a valid name (${problem}).`, n);
    if (records(state, QOS).has(n)) throw badRequest(`QoS policy '${n}' already exists.`, n);
  }
  const made = names.map((name) => ({
    name,
    id: state.newId(),
    enabled: true,
    is_local: true,
    location: arrayRef(state),
    policy_type: "qos",
    realms: [],
    context: arrayRef(state),
    max_total_bytes_per_sec: 0,
    max_total_ops_per_sec: 0,
    ...body,
  }));
  for (const p of made) records(state, QOS).set(p.name, p);
  return ok(made);
};

const updatePolicies: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, records(state, QOS), "QoS policy") as Rec[];
  const body = bodyObject(req, "QosPolicy");
  onlyFields(body, [...FIELDS, "name"], "QosPolicy");
  checkLimits(body);
  const { name: rename, ...rest } = body;
  if (rename !== undefined && (targets.length > 1 || records(state, QOS).has(String(rename))))
    throw badRequest(`Cannot rename to '${String(rename)}': rename one policy, to a name not in use.`);
  for (const p of targets) {
    Object.assign(p, rest);
    if (rename !== undefined) {
      records(state, QOS).delete(p.name);
      p.name = String(rename);
      records(state, QOS).set(p.name, p);
      for (const m of records(state, MEMBERS).values())
        if ((m["policy"] as Json)["id"] === p.id) m["policy"] = refOf(p, "qos-policies");
    }
  }
  return ok(targets);
};

const deletePolicies: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, records(state, QOS), "QoS policy") as Rec[];
  for (const p of targets) {
    const used = [...records(state, MEMBERS).values()].filter((m) => (m["policy"] as Json)["id"] === p.id);
    if (used.length > 0)
      throw badRequest(
        `QoS policy '${p.name}' still applies to ${used.map((m) => `'${String((m["member"] as Json)["name"])}'`).join(", ")}; remove its members first.`,
        p.name,
      );
  }
  for (const p of targets) records(state, QOS).delete(p.name);
  return EMPTY;
};

function memberObject(state: SimState, type: MemberType, name: string): Rec | undefined {
  const rec = type === "file-systems" ? state.fileSystems.get(name) : state.buckets.get(name);
  return rec && !rec.destroyed ? ({ name: rec.name, id: rec.id } as Rec) : undefined;
}

function memberType(req: SimRequest): MemberType {
  const types = req.query.list("member_types") ?? ["file-systems"];
  if (types.length !== 1 || (types[0] !== "file-systems" && types[0] !== "buckets"))
    throw badRequest("'member_types' must be one of file-systems, buckets.", "member_types");
  return types[0];
}

function policyFor(state: SimState, req: SimRequest): Rec {
  const name = req.query.list("policy_names")?.[0];
  const id = req.query.list("policy_ids")?.[0];
  const p =
    name !== undefined
      ? records(state, QOS).get(name)
      : [...records(state, QOS).values()].find((x) => x.id === id);
  if (!p) throw badRequest(`QoS policy '${name ?? id ?? ""}' does not exist.`, name ?? id ?? "policy_names");
  return p;
}

/** Puts objects into a QoS policy: the rule every seeding and request goes through. */
export function addQosMembers(
  state: SimState,
  policy: Rec,
  type: MemberType,
  names: readonly string[],
): Json[] {
  const made = names.map((n) => {
    const m = memberObject(state, type, n);
    if (!m) throw badRequest(`${type === "buckets" ? "Bucket" : "File system"} '${n}' does not exist.`, n);
    const held = records(state, MEMBERS).get(`${type}/${n}`);
    if (held)
      throw badRequest(
        `'${n}' is already in QoS policy '${String((held["policy"] as Json)["name"])}'; an object has at most one.`,
        n,
      );
    return {
      name: `${type}/${n}`,
      id: m.id,
      member: refOf(m, type),
      policy: refOf(policy, "qos-policies"),
      context: arrayRef(state),
    };
  });
  for (const m of made) records(state, MEMBERS).set(m.name, m);
  return made.map(render);
}

function render(m: Json): Json {
  const { name: _n, id: _i, ...shown } = m;
  return shown;
}

function listMembers(only?: MemberType): Handler {
  return (req, state) => {
    const policies = req.query.list("policy_names");
    const members = req.query.list("member_names");
    const types = only ? [only] : req.query.list("member_types");
    const rows = [...records(state, MEMBERS).values()].filter((m) => {
      const member = m["member"] as Json;
      return (
        (!policies || policies.includes(String((m["policy"] as Json)["name"]))) &&
        (!members || members.includes(String(member["name"]))) &&
        (!types || types.includes(String(member["resource_type"])))
      );
    });
    return listing(rows.map(render), req, { noun: "QoS policy member", nameParams: [] });
  };
}

const addMembers: Handler = (req, state) =>
  ok(addQosMembers(state, policyFor(state, req), memberType(req), requireList(req, "member_names")));

const removeMembers: Handler = (req, state) => {
  const policy = policyFor(state, req);
  const type = memberType(req);
  for (const n of requireList(req, "member_names")) {
    const m = records(state, MEMBERS).get(`${type}/${n}`);
    if (!m || (m["policy"] as Json)["id"] !== policy.id)
      throw badRequest(`'${n}' is not a member of QoS policy '${policy.name}'.`, n);
  }
  for (const n of requireList(req, "member_names")) records(state, MEMBERS).delete(`${type}/${n}`);
  return EMPTY;
};

export const QOS_ROUTES = {
  [QOS]: { GET: listPolicies, POST: createPolicies, PATCH: updatePolicies, DELETE: deletePolicies },
  [MEMBERS]: { GET: listMembers(), POST: addMembers, DELETE: removeMembers },
  "/qos-policies/file-systems": { GET: listMembers("file-systems") },
  "/qos-policies/buckets": { GET: listMembers("buckets") },
};

/**
 * A member's sample as the array reports it under its QoS policy: rates scaled down together (so bytes per
 * operation and the read/write mix stay) until neither limit is exceeded. Unlimited (0) or disabled: unchanged.
 */
export function shapeByQos(
  state: SimState,
  type: MemberType,
  name: string,
  sample: Record<string, number>,
): Record<string, number> {
  const m = state.generic.get(MEMBERS)?.items.get(`${type}/${name}`);
  if (!m) return sample;
  const policy = records(state, QOS).get(String((m["policy"] as Json)["name"]));
  if (!policy || policy["enabled"] === false) return sample;
  const maxBytes = Number(policy["max_total_bytes_per_sec"] ?? 0);
  const maxOps = Number(policy["max_total_ops_per_sec"] ?? 0);
  const bytes = (sample["read_bytes_per_sec"] ?? 0) + (sample["write_bytes_per_sec"] ?? 0);
  const ops =
    (sample["reads_per_sec"] ?? 0) + (sample["writes_per_sec"] ?? 0) + (sample["others_per_sec"] ?? 0);
  const factor = Math.min(
    1,
    maxBytes > 0 && bytes > 0 ? maxBytes / bytes : 1,
    maxOps > 0 && ops > 0 ? maxOps / ops : 1,
  );
  if (factor >= 1) return sample;
  const out = { ...sample };
  for (const k of [
    "read_bytes_per_sec",
    "write_bytes_per_sec",
    "reads_per_sec",
    "writes_per_sec",
    "others_per_sec",
  ])
    if (out[k] !== undefined) out[k] = Math.floor((out[k] as number) * factor * 100) / 100;
  return out;
}
