/**
 * What is read of a realm beside the realm itself, from the realms fleet-families.ts keeps, so a realm has them as
 * soon as it is created and a name the array has no realm by is refused like any other.
 * - Its space (2.19+): `/realms/space` and `/realms/space/storage-classes`, one row per realm named as the realm.
 * - Its defaults (2.20+): `/realms/defaults`, one row per realm (no name of its own: picked by `realm_names`), no
 *   default object store server until PATCH sets one (kept apart from the realm, so `/realms` lists no more).
 *
 * A realm's data lands in the speed class (`S500X-S`, where data is written without a tiering policy, as
 * StorageClassInfo says); the archival class (`S500X-A`) holds nothing until tiering moves data there, and is
 * listed at zero, as the array lists its classes.
 */
import { bodyObject, type Json } from "../models/body.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { type Handler, listing, ok } from "./common.js";
import { arrayRef, onlyFields, type Rec, records, refOf } from "./family-store.js";

const REALMS = "/realms";
const STORAGE_CLASSES = ["S500X-S", "S500X-A"] as const;

const EMPTY_SPACE: Json = {
  data_reduction: 1,
  snapshots: 0,
  total_physical: 0,
  unique: 0,
  virtual: 0,
  total_provisioned: 0,
};

const spaceOf = (realm: Rec): Json => ({ ...EMPTY_SPACE, ...((realm["space"] as Json | undefined) ?? {}) });

const listRealmSpace: Handler = (req, state: SimState) =>
  listing(
    [...records(state, REALMS).values()].map((r) => ({
      name: r.name,
      id: r.id,
      space: spaceOf(r),
      time: state.clock(),
    })),
    req,
    { totals: "list", noun: "Realm" },
  );

const listRealmSpaceByClass: Handler = (req, state: SimState) => {
  const classes = req.query.list("storage_class_names")?.filter((c) => c !== "");
  const rows = [...records(state, REALMS).values()].flatMap((r) =>
    STORAGE_CLASSES.filter((c) => !classes?.length || classes.includes(c)).map((storage_class, i) => ({
      name: r.name,
      id: `${r.id}-${storage_class}`,
      storage_class,
      space: i === 0 ? spaceOf(r) : EMPTY_SPACE,
      time: state.clock(),
    })),
  );
  return listing(rows, req, { totals: "list", noun: "Realm" });
};

const DEFAULTS = "/realms/defaults";

/** The realms `realm_names` or `realm_ids` pick (all without either); an unknown one is refused. */
function pickRealms(req: SimRequest, state: SimState): Rec[] {
  const realms = [...records(state, REALMS).values()];
  const names = req.query.list("realm_names")?.filter((n) => n !== "");
  const ids = req.query.list("realm_ids")?.filter((n) => n !== "");
  if (names?.length && ids?.length)
    throw badRequest("'realm_names' and 'realm_ids' cannot be used together.");
  const wanted = names?.length ? names : ids;
  if (!wanted?.length) return realms;
  return wanted.map((w) => {
    const r = realms.find((x) => (names?.length ? x.name : x.id) === w);
    if (!r) throw badRequest(`Realm '${w}' does not exist.`, w);
    return r;
  });
}

const defaultsOf = (state: SimState, r: Rec): Json => ({
  context: arrayRef(state),
  realm: refOf(r, "realms"),
  object_store: (records(state, DEFAULTS).get(r.name)?.["object_store"] as Json[] | undefined) ?? [],
});

const listRealmDefaults: Handler = (req, state: SimState) =>
  listing(
    pickRealms(req, state).map((r) => defaultsOf(state, r)),
    req,
    { noun: "Realm defaults", nameParams: [] },
  );

const updateRealmDefaults: Handler = (req, state: SimState) => {
  const targets = pickRealms(req, state);
  const body = bodyObject(req, "RealmDefaults");
  onlyFields(body, ["object_store"], "RealmDefaults");
  if (body["object_store"] !== undefined && !Array.isArray(body["object_store"]))
    throw badRequest("'object_store' must be a list.", "object_store");
  for (const r of targets)
    if (body["object_store"] !== undefined)
      records(state, DEFAULTS).set(r.name, { name: r.name, id: r.id, object_store: body["object_store"] });
  return ok(targets.map((r) => defaultsOf(state, r)));
};

export const REALM_READ_ROUTES = {
  [DEFAULTS]: { GET: listRealmDefaults, PATCH: updateRealmDefaults },
  "/realms/space": { GET: listRealmSpace },
  "/realms/space/storage-classes": { GET: listRealmSpaceByClass },
};
