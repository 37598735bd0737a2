/**
 * Support diagnostics (2.16+), realms (2.19+) and fleets (2.17+), modelled as far as their lists and changes
 * differ from a plain collection (node groups are one: the generic collection serves them).
 * - A diagnostics run is started by POST, `running` for RUN_MS of the simulator's clock, then `completed` with
 *   its tests readable in `/support-diagnostics/details` (index `A.B`: run A, test B).
 * - A realm is created empty, destroyed by PATCH `destroyed=true` (recoverable with `destroyed=false`) and only
 *   then deleted.
 * - An array is in at most one fleet: creating one makes the array its first member (`joined`); other arrays
 *   join with a fleet key; a fleet with other members cannot be deleted.
 */
import { nameProblem } from "../../rest-spec/names.js";
import type { Json } from "../models/body.js";
import { bodyObject } from "../models/body.js";
import type { SimState } from "../state.js";
import { badRequest } from "../types.js";
import { EMPTY, type Handler, listing, ok, requireList, selectByNamesOrIds } from "./common.js";
import { onlyFields, type Rec, records } from "./family-store.js";
import { genericUpdate } from "./generic.js";
import { renameIn } from "./node-groups.js";

const DIAGNOSTICS = "/support-diagnostics";
export const RUN_MS = 10 * 60_000;
const TESTS: readonly [string, string, string, string][] = [
  ["blade-health", "hardware", "info", "All blades report healthy."],
  ["network-connectivity", "network", "info", "Every data interface answers on its subnet."],
  ["capacity-headroom", "capacity", "warning", "Some file systems are over 90% of their provisioned size."],
  ["replication-lag", "replication", "info", "Replica links are within their recovery point objectives."],
];

function diagnostics(state: SimState, rec: Rec): Rec {
  const done = state.clock() >= (rec["start_time"] as number) + RUN_MS;
  const counts = ["info", "warning", "critical"].map((severity) => ({
    severity,
    count: done ? TESTS.filter((t) => t[2] === severity).length : 0,
  }));
  return { ...rec, status: done ? "completed" : "running", severity_count: counts };
}

const listDiagnostics: Handler = (req, state) =>
  listing(
    [...records(state, DIAGNOSTICS).values()].map((r) => diagnostics(state, r)),
    req,
    { noun: "Diagnostics" },
  );

const startDiagnostics: Handler = (req, state) => {
  const now = state.clock();
  const running = [...records(state, DIAGNOSTICS).values()].find(
    (r) => diagnostics(state, r)["status"] === "running",
  );
  if (running)
    throw badRequest(`Diagnostics run ${String(running["index"])} is still running; wait for it to finish.`);
  const index = records(state, DIAGNOSTICS).size + 1;
  const start = req.query.int("analysis_period_start_time") ?? now - 86_400_000;
  const end = req.query.int("analysis_period_end_time") ?? now;
  if (start >= end)
    throw badRequest("'analysis_period_start_time' must be before 'analysis_period_end_time'.");
  const rec: Rec = {
    name: String(index),
    id: state.newId(),
    index,
    task_id: state.newId(),
    start_time: now,
    analysis_period: { start_time: start, end_time: end },
    version: "1.0.0",
  };
  records(state, DIAGNOSTICS).set(rec.name, rec);
  return ok([diagnostics(state, rec)]);
};

const listDetails: Handler = (req, state) => {
  const rows = [...records(state, DIAGNOSTICS).values()]
    .filter((r) => diagnostics(state, r)["status"] === "completed")
    .flatMap((r) =>
      TESTS.map(([test_name, test_type, severity, result_details], i) => ({
        name: `${String(r["index"])}.${i + 1}`,
        id: `${r.id}-${i + 1}`,
        index: Number(`${String(r["index"])}.${i + 1}`),
        task_id: r["task_id"],
        test_name,
        test_type,
        severity,
        result_details,
      })),
    );
  return listing(rows, req, { noun: "Diagnostics test" });
};

/**
 * The diagnostics tools (2.24+) every such array has: their version and when they were last updated. PATCH
 * installs the tools of the bundle the array downloaded with its software (TOOLS_BUNDLE), stamping the time.
 */
const SETTINGS = "/support-diagnostics/settings";
export const TOOLS_INSTALLED = "1.0.0";
const TOOLS_BUNDLE = "1.1.0";

function tools(state: SimState): Rec {
  const rec = records(state, SETTINGS).get("tools");
  if (rec) return rec;
  const made: Rec = { name: "tools", id: "", last_updated: 0, version: TOOLS_INSTALLED };
  records(state, SETTINGS).set("tools", made);
  return made;
}

const shownTools = (rec: Rec) => ({ last_updated: rec["last_updated"], version: rec["version"] });

const listSettings: Handler = (req, state) =>
  listing([shownTools(tools(state))], req, { noun: "Diagnostics settings", nameParams: [] });

const updateSettings: Handler = (_req, state) => {
  const rec = tools(state);
  rec["version"] = TOOLS_BUNDLE;
  rec["last_updated"] = state.clock();
  return ok([shownTools(rec)]);
};

const REALMS = "/realms";

const createRealms: Handler = (req, state) => {
  const names = requireList(req, "names");
  const made = names.map((name) => {
    const problem = nameProblem(name);
    if (problem) throw badRequest(`'${name}' is not a valid name (${problem}).`, name);
    if (records(state, REALMS).has(name)) throw badRequest(`Realm '${name}' already exists.`, name);
    return {
      name,
      id: state.newId(),
      created: state.clock(),
      destroyed: false,
      time_remaining: null,
      default_inbound_tls_policy: null,
      space: {
        data_reduction: 1,
        snapshots: 0,
        total_physical: 0,
        unique: 0,
        virtual: 0,
        total_provisioned: 0,
      },
    } as Rec;
  });
  for (const r of made) records(state, REALMS).set(r.name, r);
  return ok(made);
};

const listRealms: Handler = (req, state) => {
  const destroyed = req.query.bool("destroyed");
  const rows = [...records(state, REALMS).values()].filter(
    (r) => destroyed === undefined || r["destroyed"] === destroyed,
  );
  return listing(rows, req, { noun: "Realm" });
};

const updateRealms: Handler = (req, state) => {
  const body = bodyObject(req, "RealmPatch");
  onlyFields(body, ["destroyed", "name", "default_inbound_tls_policy"], "RealmPatch");
  const result = genericUpdate(req, state);
  for (const r of (result.items ?? []) as Rec[]) {
    const rec = records(state, REALMS).get(r.name) as Rec;
    rec["time_remaining"] = rec["destroyed"] === true ? 86_400_000 : null;
  }
  return ok((result.items ?? []).map((r) => records(state, REALMS).get((r as Rec).name)));
};

const deleteRealms: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, records(state, REALMS), "Realm") as Rec[];
  for (const r of targets)
    if (r["destroyed"] !== true)
      throw badRequest(
        `Realm '${r.name}' is not destroyed; destroy it (PATCH destroyed=true) before deleting it.`,
        r.name,
      );
  for (const r of targets) records(state, REALMS).delete(r.name);
  return EMPTY;
};

const FLEETS = "/fleets";
/** Members keyed by array name. */
const MEMBERS = "/fleets/members";

function memberRow(fleet: Rec, name: string, id: string, local: boolean): Rec {
  return {
    name,
    id,
    fleet: { name: fleet.name, id: fleet.id, is_local: true, resource_type: "fleets" },
    member: { name, id, is_local: local, resource_type: "arrays" },
    status: "joined",
    status_details: "",
    coordinator_of: [],
  };
}

const createFleets: Handler = (req, state) => {
  const names = requireList(req, "names");
  if (names.length > 1 || records(state, FLEETS).size > 0)
    throw badRequest(`Array '${state.array.name}' is already in a fleet (an array is in at most one).`);
  const name = names[0] as string;
  const problem = nameProblem(name);
  if (problem) throw badRequest(`'${name}' is not a valid name (${problem}).`, name);
  const fleet: Rec = { name, id: state.newId(), is_local: true };
  records(state, FLEETS).set(name, fleet);
  records(state, MEMBERS).set(state.array.name, memberRow(fleet, state.array.name, state.array.id, true));
  return ok([fleet]);
};

const deleteFleets: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, records(state, FLEETS), "Fleet") as Rec[];
  const others = [...records(state, MEMBERS).values()].filter((m) => m.name !== state.array.name);
  if (targets.length > 0 && others.length > 0)
    throw badRequest(
      `Fleet '${targets[0]?.name}' still has members ${others.map((m) => `'${m.name}'`).join(", ")}; remove them first.`,
    );
  for (const f of targets) records(state, FLEETS).delete(f.name);
  if (targets.length > 0) records(state, MEMBERS).clear();
  return EMPTY;
};

/** A fleet is renamed by PATCH `{name}`; its members' `fleet` references follow. */
const renameFleets: Handler = (req, state) => {
  const fleet = renameIn(req, state, FLEETS, "Fleet", "FleetPatch", (_from, to) => {
    for (const m of records(state, MEMBERS).values()) m["fleet"] = { ...(m["fleet"] as Json), name: to.name };
  });
  return ok([fleet]);
};

const listMembers: Handler = (req, state) => {
  const wanted = req.query.list("member_names");
  const rows = [...records(state, MEMBERS).values()].filter((m) => !wanted || wanted.includes(m.name));
  return listing(
    rows.map(({ name: _n, id: _i, ...shown }) => shown),
    req,
    { noun: "Fleet member", nameParams: [] },
  );
};

const addMembers: Handler = (req, state) => {
  const fleet = [...records(state, FLEETS).values()][0];
  const asked = req.query.list("fleet_names")?.[0];
  if (!fleet || (asked !== undefined && asked !== fleet.name))
    throw badRequest(`Fleet '${asked ?? ""}' does not exist.`, asked ?? "fleet_names");
  const body = bodyObject(req, "FleetMemberPost", true);
  const members = (body["members"] as Json[] | undefined) ?? [];
  if (members.length === 0)
    throw badRequest("'members' is required: each with its 'member' and the fleet 'key'.");
  const made = members.map((m) => {
    const member = (m["member"] as Json | undefined) ?? {};
    const name = String(member["name"] ?? "");
    if (name === "" || typeof m["key"] !== "string" || m["key"] === "")
      throw badRequest("Each member needs 'member.name' and the fleet 'key' (POST /fleets/fleet-key).");
    if (records(state, MEMBERS).has(name))
      throw badRequest(`'${name}' is already a member of '${fleet.name}'.`, name);
    return memberRow(fleet, name, state.newId(), false);
  });
  for (const m of made) records(state, MEMBERS).set(m.name, m);
  return ok(made.map(({ name: _n, id: _i, ...shown }) => shown));
};

const removeMembers: Handler = (req, state) => {
  for (const n of requireList(req, "member_names")) {
    if (!records(state, MEMBERS).has(n)) throw badRequest(`'${n}' is not a fleet member.`, n);
    if (n === state.array.name)
      throw badRequest("The local array leaves a fleet by deleting it or from another member.", n);
  }
  for (const n of requireList(req, "member_names")) records(state, MEMBERS).delete(n);
  return EMPTY;
};

export const FLEET_FAMILY_ROUTES = {
  [DIAGNOSTICS]: { GET: listDiagnostics, POST: startDiagnostics },
  "/support-diagnostics/details": { GET: listDetails },
  [SETTINGS]: { GET: listSettings, PATCH: updateSettings },
  [REALMS]: { GET: listRealms, POST: createRealms, PATCH: updateRealms, DELETE: deleteRealms },
  [FLEETS]: { POST: createFleets, PATCH: renameFleets, DELETE: deleteFleets },
  [MEMBERS]: { GET: listMembers, POST: addMembers, DELETE: removeMembers },
};
