/**
 * Fields REST 2.x turned from a name into a reference (models.tsv, and Pure's 2.x SDK refuses the 1.x string):
 * a 2.x item is read back into 1.x's shape here, before validation, so the read schemas and every command read
 * one shape whichever generation answered. Keyed by the path below the version; each entry says which field
 * became a reference and which flat 1.x fields it carries.
 */
type Item = Record<string, unknown>;

interface Folded {
  /** The field that is a name in 1.x and a reference in 2.x. */
  field: string;
  /** 1.x's flat fields, each read from the reference's own field. */
  flat?: Readonly<Record<string, string>>;
}

const FOLDED: Readonly<Record<string, readonly Folded[]>> = {
  // FileSystemSnapshot.source: str + source_id/source_is_local/source_location/source_display_name in 1.x, a
  // FixedLocationReference in 2.x.
  "/file-system-snapshots": [
    {
      field: "source",
      flat: {
        source_id: "id",
        source_is_local: "is_local",
        source_location: "location",
        source_display_name: "display_name",
      },
    },
  ],
  // AdminCache.role: str in 1.x, a FixedReference in 2.x.
  "/admins/cache": [{ field: "role" }],
};

function isRef(v: unknown): v is Item {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * `items` of a 2.x answer on `path` in 1.x's shape (changed in place: they are this answer's own). The `context`
 * reference of 2.17+ (the fleet member an item lives on) goes too: the bot reads each array by its own
 * connection, so it names the array the card already names, and 1.x has no such field.
 */
export function in1xShape(path: string, items: unknown[]): unknown[] {
  // Set to undefined, not deleted: `delete` drops each item to V8's slow dictionary mode, which cost 2.x list
  // calls 6 % over bare undici (bench:client); an undefined field is absent to every reader and to JSON.
  for (const item of items) if (isRef(item) && isRef(item["context"])) item["context"] = undefined;
  const folded = FOLDED[path];
  if (folded === undefined) return items;
  for (const item of items) {
    if (!isRef(item)) continue;
    for (const f of folded) {
      const ref = item[f.field];
      if (!isRef(ref)) continue;
      item[f.field] = ref["name"];
      for (const [flat, from] of Object.entries(f.flat ?? {}))
        if (item[flat] === undefined && ref[from] !== undefined) item[flat] = ref[from];
    }
  }
  return items;
}
