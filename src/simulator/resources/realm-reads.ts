/**
 * What is read of a realm beside the realm itself, from the realms fleet-families.ts keeps, so a realm has them as
 * soon as it is created and a name the array has no realm by is refused like any other.
 * - Its space (2.19+): `/realms/space` and `/realms/space/storage-classes`, one row per realm named as the realm.
 * - Its defaults (2.20+) are realm-defaults.ts's.
 *
 * A realm's data lands in the speed class (`S500X-S`, where data is written without a tiering policy, as
 * StorageClassInfo says); the archival class (`S500X-A`) holds nothing until tiering moves data there, and is
 * listed at zero, as the array lists its classes.
 */
import type { Json } from "../models/body.js";
import type { SimState } from "../state.js";
import { type Handler, listing } from "./common.js";
import { type Rec, records } from "./family-store.js";

const REALMS = "/realms";
const STORAGE_CLASSES = ["S500X-S", "S500X-A"] as const;

/** A new realm's space: nothing stored yet (fleet-families.ts creates realms with it). */
export const EMPTY_SPACE: Json = {
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

export const REALM_READ_ROUTES = {
  "/realms/space": { GET: listRealmSpace },
  "/realms/space/storage-classes": { GET: listRealmSpaceByClass },
};
