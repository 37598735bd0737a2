/**
 * The generic in-memory collection behind the resources that really are plain records (hardware, blades,
 * logs, SNMP managers, syslog servers, virtual hosts, settings singletons, …): GET lists through the listing
 * engine, POST `?names=` creates, PATCH merges, DELETE removes. Singleton paths (dns, smtp, …) hold exactly
 * one item that PATCH merges into. Anything with a relationship, a default, a secret or a rule is modelled
 * in its own module; `collection()` is also the store some of those keep their records in.
 */

import { MODELS_2X } from "../../rest-spec/models-2x.js";
import { nameProblem } from "../../rest-spec/names.js";
import { findOperation } from "../../rest-spec/operations.js";
import { atLeast } from "../../rest-spec/versions.js";
import type { Json } from "../models/body.js";
import { bodyObject } from "../models/body.js";
import { renderSnmp, SNMP_PATHS } from "../models/snmp.js";
import type { GenericCollection, SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { EMPTY, type Handler, listing, ok, requireList, selectByNamesOrIds } from "./common.js";

export const SINGLETON_PATHS = new Set([
  "/dns",
  "/smtp",
  "/support",
  "/snmp-agents",
  "/snmp-agents/mib",
  "/quotas/settings",
  "/syslog-servers/settings",
  "/arrays/eula",
]);

/** Listings whose total/total_only went away in 1.12 (the rest of the generic listings never had them). */
const TOTALS_UNTIL_1_12 = new Set(["/file-system-snapshots/transfer", "/file-system-replica-links/transfer"]);

export function collection(state: SimState, path: string): GenericCollection {
  let c = state.generic.get(path);
  if (!c) {
    c = { singleton: SINGLETON_PATHS.has(path), items: new Map() };
    state.generic.set(path, c);
  }
  return c;
}

export type Keyed = Json & { id: string; name: string };

/** A collection's items by name, each carrying its name and its id as a string (what handlers look up by). */
export function keyed(state: SimState, path: string): Map<string, Keyed> {
  const out = new Map<string, Keyed>();
  for (const [name, item] of collection(state, path).items)
    out.set(name, { ...item, id: String(item["id"] ?? ""), name });
  return out;
}

/** Before 1.8 these models have no id, so older clients do not read one. */
export function gateId(req: SimRequest, item: Json): Json {
  if (atLeast(req.version, "1.8")) return item;
  const { id: _id, ...rest } = item;
  return rest;
}

/** Length limits real clients check when they read SNMP settings back (the SDK raises on violations). */
function validate(item: Json): void {
  for (const [outer, inner] of [
    ["v2c", "community"],
    ["v3", "auth_passphrase"],
  ] as const) {
    const value = (item[outer] as Json | undefined)?.[inner];
    if (typeof value === "string" && value.length > 32)
      throw badRequest(`'${outer}.${inner}' must be at most 32 characters.`);
  }
  const engine = item["engine_id"];
  if (typeof engine === "string" && engine.length > 32)
    throw badRequest("'engine_id' must be at most 32 characters.");
}

function render(item: Json, version: string, path: string): Json {
  const shown = SNMP_PATHS.has(path) ? renderSnmp(item) : item;
  if (atLeast(version, "1.8") || !("id" in shown)) return shown;
  const { id: _id, ...rest } = shown;
  return rest;
}

/** One level of merge: nested objects are merged, everything else replaced. */
function merge(target: Json, patch: Json): Json {
  const out: Json = { ...target };
  for (const [k, v] of Object.entries(patch)) {
    const cur = out[k];
    const bothObjects =
      v &&
      cur &&
      typeof v === "object" &&
      typeof cur === "object" &&
      !Array.isArray(v) &&
      !Array.isArray(cur);
    out[k] = bothObjects ? { ...(cur as Json), ...(v as Json) } : v;
  }
  return out;
}

function rejectIdentity(body: Json): void {
  for (const f of ["name", "id"]) {
    if (f in body)
      throw badRequest(
        `'${f}' cannot be set in the body; select objects with the 'names' or 'ids' parameter.`,
      );
  }
}

export const genericList: Handler = (req, state) => {
  const c = collection(state, req.path);
  const totals = TOTALS_UNTIL_1_12.has(req.path) && !atLeast(req.version, "1.12") ? "object" : "none";
  return listing(
    [...c.items.values()].map((i) => render(i, req.version, req.path)),
    req,
    { totals, noun: noun(req.path) },
  );
};

/**
 * A record of a 2.x-only operation that names its objects by other parameters (a membership's `policy_names` and
 * `member_names`): keyed by those values, so the same words find it again.
 */
function otherNames(req: SimRequest): string | undefined {
  const keys = [...req.query.raw.keys()]
    .filter((k) => /_names$/.test(k) && !/^(context|source|target|to_\w+)_names$/.test(k))
    .sort();
  const parts = keys.map((k) => (req.query.list(k) ?? []).join(","));
  return parts.length > 0 && parts.every(Boolean) ? parts.join("/") : undefined;
}

export const genericCreate: Handler = (req, state) => {
  const c = collection(state, req.path);
  if (c.singleton) throw badRequest(`${req.path} always has exactly one item; change it with PATCH.`);
  const other = req.query.has("names") ? undefined : otherNames(req);
  // A 2.x-only POST that takes no name at all (start a support-diagnostics run, mint a token) makes one record.
  const op = findOperation("POST", req.path);
  const unnamed = !other && op !== undefined && !op.v1 && !("names" in (op.v2?.params ?? {}));
  const names = other
    ? [other]
    : unnamed
      ? [`${req.path.split("/").at(-1)}-${state.newId().slice(0, 8)}`]
      : requireList(req, "names");
  const body = bodyObject(req, "request", true);
  rejectIdentity(body);
  for (const n of names) {
    const problem = nameProblem(n);
    if (problem) throw badRequest(`'${n}' is not a valid name (${problem}).`, n);
    if (c.items.has(n)) throw badRequest(`'${n}' already exists.`, n);
  }
  const created = names.map((name) => {
    const item: Json = { name, id: state.newId(), ...body };
    validate(item);
    return item;
  });
  for (const item of created) c.items.set(String(item["name"]), item);
  return ok(created.map((i) => render(i, req.version, req.path)));
};

/** "Item of /subnets" reads well in "… 'x' does not exist" without a per-path dictionary. */
function noun(path: string): string {
  return `Item of ${path}`;
}

function selectGeneric(req: SimRequest, c: GenericCollection): Json[] {
  if (c.singleton) {
    const only = [...c.items.values()];
    const names = req.query.list("names");
    for (const n of names ?? [])
      if (!c.items.has(n)) throw badRequest(`${noun(req.path)} '${n}' does not exist.`, n);
    return only;
  }
  const keyed = new Map<string, Json & { id: string }>();
  for (const [name, item] of c.items) keyed.set(name, { ...item, id: String(item["id"] ?? "") });
  const other = req.query.has("names") || req.query.has("ids") ? undefined : otherNames(req);
  if (other) {
    const found = c.items.get(other);
    if (!found) throw badRequest(`${noun(req.path)} '${other}' does not exist.`, other);
    return [found];
  }
  // A 2.x-only operation that names nothing (PATCH /admins/settings) acts on what the collection holds.
  if (!req.query.has("names") && !req.query.has("ids") && !findOperation(req.method, req.path)?.v1)
    return [...c.items.values()];
  return (selectByNamesOrIds(req, keyed, noun(req.path)) ?? []).map(
    (i) => c.items.get(String(i["name"])) as Json,
  );
}

/**
 * A 2.x-only object renamed by PATCH `{name}` where its PATCH model takes a writable `name` (a workload preset):
 * one object at a time, to a valid name no other has.
 */
function renameTo(
  req: SimRequest,
  c: GenericCollection,
  targets: readonly Json[],
  body: Json,
): string | undefined {
  const op = findOperation("PATCH", req.path);
  const model = op?.v1 === undefined && op?.v2?.body ? MODELS_2X[op.v2.body] : undefined;
  const to = body["name"];
  if (to === undefined || !model?.["name"] || model["name"].ro) return undefined;
  if (typeof to !== "string") throw badRequest("'name' must be the new name, a string.");
  if (targets.length !== 1) throw badRequest("Rename one object at a time.");
  const problem = nameProblem(to);
  if (problem) throw badRequest(`'${to}' is not a valid name (${problem}).`, to);
  if (to !== targets[0]?.["name"] && c.items.has(to)) throw badRequest(`'${to}' already exists.`, to);
  return to;
}

export const genericUpdate: Handler = (req, state) => {
  const c = collection(state, req.path);
  const targets = selectGeneric(req, c);
  const body = bodyObject(req, "request");
  const renamed = renameTo(req, c, targets, body);
  const { name: _name, ...rest } = body;
  rejectIdentity(renamed === undefined ? body : rest);
  if (renamed !== undefined) c.items.delete(String(targets[0]?.["name"]));
  const next = targets.map((t) => merge(t, body));
  for (const n of next) validate(n);
  for (const n of next) c.items.set(String(n["name"]), n);
  return ok(next.map((i) => render(i, req.version, req.path)));
};

export const genericDelete: Handler = (req, state) => {
  const c = collection(state, req.path);
  if (c.singleton) throw badRequest(`${req.path} cannot be deleted.`);
  for (const t of selectGeneric(req, c)) c.items.delete(String(t["name"]));
  return EMPTY;
};
