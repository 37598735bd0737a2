/**
 * Legal holds (2.17+) and what they hold: paths of file systems. The array's rules kept here: a held path
 * refuses deletion (and so does everything under a path held `recursive`), until released with PATCH
 * `released=true`; a file system holding held entities cannot be destroyed or eradicated; a hold that holds
 * anything cannot be deleted. Clients deleting files are not REST calls: the control interface asks
 * `pathDeletion` for them (`POST /_control/path-deletion`).
 */
import { nameProblem } from "../../rest-spec/names.js";
import type { Json } from "../models/body.js";
import { bodyObject } from "../models/body.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { EMPTY, type Handler, listing, ok, requireList, selectByNamesOrIds } from "./common.js";
import { onlyFields, type Rec, records, refOf } from "./family-store.js";

export const HOLDS = "/legal-holds";
/** Held entities keyed `hold|file system|path`. */
const HELD = "/legal-holds/held-entities";

const listHolds: Handler = (req, state) =>
  listing([...records(state, HOLDS).values()], req, { noun: "Legal hold" });

const createHolds: Handler = (req, state) => {
  const names = requireList(req, "names");
  const body = bodyObject(req, "LegalHold", true);
  onlyFields(body, ["description"], "LegalHold");
  const made = names.map((name) => {
    const problem = nameProblem(name);
    if (problem) throw badRequest(`'${name}' is not a valid name (${problem}).`, name);
    if (records(state, HOLDS).has(name)) throw badRequest(`Legal hold '${name}' already exists.`, name);
    return { name, id: state.newId(), description: "", realms: [], ...body } as Rec;
  });
  for (const h of made) records(state, HOLDS).set(h.name, h);
  return ok(made);
};

const updateHolds: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, records(state, HOLDS), "Legal hold") as Rec[];
  const body = bodyObject(req, "LegalHold");
  onlyFields(body, ["description"], "LegalHold");
  for (const h of targets) Object.assign(h, body);
  return ok(targets);
};

function heldBy(state: SimState, pred: (e: Rec) => boolean): Rec[] {
  return [...records(state, HELD).values()].filter(pred);
}

const deleteHolds: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, records(state, HOLDS), "Legal hold") as Rec[];
  for (const h of targets) {
    const held = heldBy(state, (e) => (e["legal_hold"] as Json)["id"] === h.id);
    if (held.length > 0)
      throw badRequest(
        `Legal hold '${h.name}' still holds ${held.map((e) => `${String((e["file_system"] as Json)["name"])}:${String(e["path"])}`).join(", ")}; release them first.`,
        h.name,
      );
  }
  for (const h of targets) records(state, HOLDS).delete(h.name);
  return EMPTY;
};

interface Selection {
  hold?: Rec;
  fileSystem?: string;
  paths?: string[];
}

function selection(req: SimRequest, state: SimState, needAll: boolean): Selection {
  const holdName = req.query.list("names")?.[0];
  const holdId = req.query.list("ids")?.[0];
  const hold =
    holdName !== undefined
      ? records(state, HOLDS).get(holdName)
      : holdId !== undefined
        ? [...records(state, HOLDS).values()].find((h) => h.id === holdId)
        : undefined;
  if ((holdName !== undefined || holdId !== undefined) && !hold)
    throw badRequest(`Legal hold '${holdName ?? holdId}' does not exist.`, holdName ?? holdId);
  const fsName =
    req.query.list("file_system_names")?.[0] ??
    [...state.fileSystems.values()].find((f) => f.id === req.query.list("file_system_ids")?.[0])?.name;
  const paths = req.query.list("paths");
  if (needAll && (!hold || fsName === undefined || !paths?.length))
    throw badRequest("Name the legal hold ('names'), the file system ('file_system_names') and the 'paths'.");
  return {
    ...(hold ? { hold } : {}),
    ...(fsName !== undefined ? { fileSystem: fsName } : {}),
    ...(paths ? { paths } : {}),
  };
}

function render(e: Rec): Json {
  const { name: _n, id: _i, recursive: _r, ...shown } = e;
  return shown;
}

const listHeld: Handler = (req, state) => {
  const s = selection(req, state, false);
  const rows = heldBy(
    state,
    (e) =>
      (!s.hold || (e["legal_hold"] as Json)["id"] === s.hold.id) &&
      (s.fileSystem === undefined || (e["file_system"] as Json)["name"] === s.fileSystem) &&
      (!s.paths || s.paths.includes(String(e["path"]))),
  );
  return listing(rows.map(render), req, { noun: "Held entity", nameParams: [] });
};

/** Puts a path of a file system under a hold: the rule every seeding and request goes through. */
export function holdPath(state: SimState, hold: Rec, fsName: string, path: string, recursive: boolean): Json {
  const fs = state.fileSystems.get(fsName);
  if (!fs || fs.destroyed) throw badRequest(`File system '${fsName}' does not exist.`, fsName);
  if (!path.startsWith("/")) throw badRequest(`'${path}' is not a path; paths start with '/'.`, path);
  const key = `${hold.name}|${fsName}|${path}`;
  const e: Rec = {
    name: key,
    id: state.newId(),
    recursive,
    file_system: refOf(fs, "file-systems"),
    legal_hold: refOf(hold, "legal-holds"),
    path,
    status: "applied",
  };
  records(state, HELD).set(key, e);
  return render(e);
}

const addHeld: Handler = (req, state) => {
  const s = selection(req, state, true);
  const recursive = req.query.bool("recursive") ?? false;
  return ok(
    (s.paths as string[]).map((p) => holdPath(state, s.hold as Rec, s.fileSystem as string, p, recursive)),
  );
};

/** Only releasing is a change the array takes here (`released=true`); a released entity is no longer held. */
const releaseHeld: Handler = (req, state) => {
  const s = selection(req, state, true);
  if (req.query.bool("released") !== true)
    throw badRequest("Set 'released=true' to release held entities.", "released");
  const out: Json[] = [];
  for (const p of s.paths as string[]) {
    const key = `${(s.hold as Rec).name}|${s.fileSystem}|${p}`;
    const e = records(state, HELD).get(key);
    if (!e) throw badRequest(`'${p}' of '${s.fileSystem}' is not held by '${(s.hold as Rec).name}'.`, p);
    records(state, HELD).delete(key);
    out.push({ ...render(e), status: "released" });
  }
  return ok(out);
};

export const HOLD_ROUTES = {
  [HOLDS]: { GET: listHolds, POST: createHolds, PATCH: updateHolds, DELETE: deleteHolds },
  [HELD]: { GET: listHeld, POST: addHeld, PATCH: releaseHeld },
};

/** Why destroying or eradicating a file system is refused by a legal hold, or undefined. */
export function holdRefusal(state: SimState, fs: { name: string }): string | undefined {
  const held = heldBy(state, (e) => (e["file_system"] as Json)["name"] === fs.name);
  if (held.length === 0) return undefined;
  const holds = [...new Set(held.map((e) => String((e["legal_hold"] as Json)["name"])))];
  return `File system '${fs.name}' holds ${held.length === 1 ? "a path" : "paths"} under legal hold ${holds.map((h) => `'${h}'`).join(", ")} (${held.map((e) => String(e["path"])).join(", ")}); it cannot be destroyed or eradicated until released.`;
}

/** Whether a client may delete `path` of `fileSystem`: not while it, or a recursively held parent, is held. */
export function pathDeletion(
  state: SimState,
  fileSystem: string,
  path: string,
): { allowed: boolean; reason: string } {
  const hit = heldBy(state, (e) => {
    if ((e["file_system"] as Json)["name"] !== fileSystem) return false;
    const held = String(e["path"]).replace(/\/+$/, "");
    // Deleting a directory deletes what it holds: a held path below it refuses too.
    const target = path.replace(/\/+$/, "");
    const below = e["recursive"] === true && (target.startsWith(`${held}/`) || held === "");
    return target === held || below || held.startsWith(`${target}/`) || target === "";
  });
  const first = hit[0];
  if (!first) return { allowed: true, reason: `Nothing under '${path}' of '${fileSystem}' is held.` };
  return {
    allowed: false,
    reason: `'${path}' of '${fileSystem}' is under legal hold '${String((first["legal_hold"] as Json)["name"])}' (held path ${String(first["path"])}); it cannot be deleted until released.`,
  };
}
