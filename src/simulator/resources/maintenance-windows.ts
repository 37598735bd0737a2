/**
 * Maintenance windows (2.16+): "a maintenance window suppresses alerts for a specified period of time" (the
 * SDK's MaintenanceWindowsApi). A window covers the whole array (`names=array` on arrays; any valid name is
 * taken here, as the demo's `fw-upgrade`) from `created` to `expires`, both on the simulator's clock: it ends by
 * time, or early by DELETE; ended windows leave the list. What it suppresses is read in the Alert model's own
 * field `notified` ("the last notification timestamp"): an alert whose notification fell in a window was not
 * notified while the window was in force (no `notified`), and is notified when the window ends if it is still
 * not closed then (`notified` = the window's end); an alert closed within the window never was.
 */
import { nameProblem } from "../../rest-spec/names.js";
import type { AlertRec } from "../models/alert.js";
import { bodyObject } from "../models/body.js";
import type { SimState } from "../state.js";
import { badRequest } from "../types.js";
import { EMPTY, type Handler, listing, ok, requireList, selectByNamesOrIds } from "./common.js";
import { onlyFields, type Rec, records } from "./family-store.js";

export const WINDOWS = "/maintenance-windows";

/** Windows not yet ended (in force now, or starting later), as GET lists them. */
function current(state: SimState): Map<string, Rec> {
  const now = state.clock();
  return new Map([...records(state, WINDOWS)].filter(([, w]) => (w["expires"] as number) > now));
}

const listWindows: Handler = (req, state) =>
  listing([...current(state).values()].map(render), req, { noun: "Maintenance window" });

const createWindows: Handler = (req, state) => {
  const names = requireList(req, "names");
  const body = bodyObject(req, "MaintenanceWindowPost", true);
  onlyFields(body, ["timeout"], "MaintenanceWindowPost");
  const timeout = body["timeout"];
  if (!(Number.isInteger(timeout) && (timeout as number) > 0))
    throw badRequest(
      "'timeout' (the window's length in milliseconds) is required and must be positive.",
      "timeout",
    );
  const now = state.clock();
  const made = names.map((name) => {
    const problem = nameProblem(name);
    if (problem) throw badRequest(`'${name}' is not a valid name (${problem}).`, name);
    if (current(state).has(name)) throw badRequest(`Maintenance window '${name}' is already open.`, name);
    return { name, id: state.newId(), created: now, expires: now + (timeout as number) } as Rec;
  });
  // An ended window of the same name is history: its record moves aside so its suppression still reads right.
  for (const w of made) {
    const old = records(state, WINDOWS).get(w.name);
    if (old) records(state, WINDOWS).set(`${w.name}\u0000${String(old["id"])}`, old);
    records(state, WINDOWS).set(w.name, w);
  }
  return ok(made.map(render));
};

/** Ends windows early: they stop suppressing from now on. */
const deleteWindows: Handler = (req, state) => {
  const now = state.clock();
  for (const w of selectByNamesOrIds(req, current(state), "Maintenance window") as Rec[]) w["expires"] = now;
  return EMPTY;
};

function render(w: Rec): Rec {
  return { name: w.name, id: w.id, created: w["created"], expires: w["expires"] };
}

export const WINDOW_ROUTES = {
  [WINDOWS]: { GET: listWindows, POST: createWindows, DELETE: deleteWindows },
};

/** Whether a window is in force at `t`. */
export function windowAt(state: SimState, t: number): Rec | undefined {
  return [...records(state, WINDOWS).values()].find(
    (w) => (w["created"] as number) <= t && t < (w["expires"] as number),
  );
}

/** The alert's `notified` as the array reports it through its windows: a time, or undefined (not notified). */
export function notifiedThroughWindows(state: SimState, a: AlertRec): number | undefined {
  const now = state.clock();
  let t = a.notified;
  // A window may end inside the next one: the notification waits for each in turn.
  for (let hops = 0; hops < 16; hops++) {
    const w = windowAt(state, t);
    if (!w) return t;
    const end = w["expires"] as number;
    if (now < end) return undefined;
    if (a.state === "closed" && a.updated < end) return undefined;
    t = end;
  }
  return t;
}

/** A rendered alert with `notified` as the windows leave it. */
export function withWindows(
  state: SimState,
  a: AlertRec,
  shown: Record<string, unknown>,
): Record<string, unknown> {
  if (!state.generic.has(WINDOWS)) return shown;
  const notified = notifiedThroughWindows(state, a);
  if (notified === a.notified) return shown;
  const { notified: _n, ...rest } = shown;
  return notified === undefined ? rest : { ...rest, notified };
}
