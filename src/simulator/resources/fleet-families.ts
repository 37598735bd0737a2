/**
 * Support diagnostics (2.16+) and realms (2.19+), modelled as far as their lists and changes differ from a plain
 * collection; fleets (fleets.ts) and node groups (node-groups.ts) keep their rules in their own modules.
 * - A diagnostics run is started by POST, `running` for RUN_MS of the simulator's clock, then `completed` with
 *   its tests readable in `/support-diagnostics/details` (index `A.B`: run A, test B).
 * - A realm is created empty, destroyed by PATCH `destroyed=true` (recoverable with `destroyed=false`) and only
 *   then deleted; its defaults (the object store servers new entities go on) are realm-defaults.ts's.
 * - The diagnostics tools (2.24+) are updated from the bundle the array downloaded (PATCH settings).
 */
import { nameProblem } from "../../rest-spec/names.js";
import { bodyObject } from "../models/body.js";
import type { SimState } from "../state.js";
import { badRequest } from "../types.js";
import { EMPTY, type Handler, listing, ok, requireList, selectByNamesOrIds } from "./common.js";
import { onlyFields, type Rec, records } from "./family-store.js";
import { FLEET_ROUTES } from "./fleets.js";
import { genericUpdate } from "./generic.js";
import { REALM_DEFAULT_ROUTES } from "./realm-defaults.js";
import { EMPTY_SPACE } from "./realm-reads.js";

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
      space: { ...EMPTY_SPACE },
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

export const FLEET_FAMILY_ROUTES = {
  [DIAGNOSTICS]: { GET: listDiagnostics, POST: startDiagnostics },
  "/support-diagnostics/details": { GET: listDetails },
  [SETTINGS]: { GET: listSettings, PATCH: updateSettings },
  [REALMS]: { GET: listRealms, POST: createRealms, PATCH: updateRealms, DELETE: deleteRealms },
  ...REALM_DEFAULT_ROUTES,
  ...FLEET_ROUTES,
};
