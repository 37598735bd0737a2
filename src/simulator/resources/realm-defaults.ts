/**
 * A realm's defaults (2.20+): the object store servers new entities of the realm are created on. One row per realm
 * that is not destroyed, `{realm, object_store: [{server}]}`, empty until set. PATCH `realm_names`/`realm_ids`
 * replaces the list; every server must exist on the array (`/servers`), and the body takes `object_store` alone.
 */
import type { Json } from "../models/body.js";
import { bodyObject } from "../models/body.js";
import type { SimState } from "../state.js";
import type { SimRequest } from "../types.js";
import { badRequest } from "../types.js";
import { type Handler, listing, ok } from "./common.js";
import { arrayRef, onlyFields, type Rec, records, refOf } from "./family-store.js";

const REALMS = "/realms";
const SERVERS = "/servers";
/** The defaults by realm name (kept apart from the realm's own record, which GET /realms answers). */
const DEFAULTS = "/realms/defaults";

function realmsOf(req: SimRequest, state: SimState, required: boolean): Rec[] {
  const live = [...records(state, REALMS).values()].filter((r) => r["destroyed"] !== true);
  const names = req.query.list("realm_names")?.filter(Boolean);
  const ids = req.query.list("realm_ids")?.filter(Boolean);
  if (names?.length && ids?.length)
    throw badRequest("'realm_names' and 'realm_ids' cannot be used together.");
  const wanted = names?.length ? names : ids;
  if (!wanted?.length) {
    if (required) throw badRequest("'realm_names' or 'realm_ids' is required.");
    return live;
  }
  return wanted.map((w) => {
    const found = live.find((r) => (names?.length ? r.name : r.id) === w);
    if (!found) throw badRequest(`Realm '${w}' does not exist.`, w);
    return found;
  });
}

function row(state: SimState, realm: Rec): Json {
  const servers = (records(state, DEFAULTS).get(realm.name)?.["servers"] as Rec[] | undefined) ?? [];
  return {
    context: arrayRef(state),
    realm: refOf(realm, "realms"),
    object_store: servers.map((s) => ({ server: refOf(s, "servers") })),
  };
}

const listDefaults: Handler = (req, state) =>
  listing(
    realmsOf(req, state, false).map((r) => row(state, r)),
    req,
    { noun: "Realm defaults", nameParams: [] },
  );

/** The servers a body names, each by name or id, all existing: the list is replaced only when every one does. */
function serversOf(body: Json, state: SimState): Rec[] {
  const list = body["object_store"];
  if (!Array.isArray(list)) throw badRequest("'object_store' must be a list of {server} objects.");
  const byName = records(state, SERVERS);
  return list.map((entry) => {
    const ref = (entry as Json | null)?.["server"] as Json | undefined;
    const key = ref?.["name"] ?? ref?.["id"];
    if (typeof key !== "string") throw badRequest("Each 'object_store' entry needs a server's name or id.");
    const found =
      typeof ref?.["name"] === "string" ? byName.get(key) : [...byName.values()].find((s) => s.id === key);
    if (!found) throw badRequest(`Server '${key}' does not exist.`, key);
    return found;
  });
}

const updateDefaults: Handler = (req, state) => {
  const body = bodyObject(req, "RealmDefaults");
  onlyFields(body, ["object_store"], "RealmDefaults");
  const realms = realmsOf(req, state, true);
  const servers = serversOf(body, state);
  for (const r of realms) records(state, DEFAULTS).set(r.name, { name: r.name, id: r.id, servers });
  return ok(realms.map((r) => row(state, r)));
};

export const REALM_DEFAULT_ROUTES = { [DEFAULTS]: { GET: listDefaults, PATCH: updateDefaults } };
