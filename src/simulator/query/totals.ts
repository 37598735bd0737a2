/**
 * The `total` object: numeric fields summed across items, recursing into nested objects such as `space`.
 * Strings, booleans, arrays and references are dropped, as are `name` and timestamp fields (fact sheet §4:
 * ms-since-epoch values), whose sum would mean nothing.
 */

export const DEFAULT_TOTAL_SKIP: readonly string[] = [
  "name",
  "created",
  "updated",
  "notified",
  "time",
  "recovery_point",
  "_as_of",
  "time_remaining",
  "lag",
  "expires",
];

type Totals = Record<string, unknown>;

export function sumItems(items: readonly object[], skip: readonly string[] = DEFAULT_TOTAL_SKIP): Totals {
  const skipped = new Set(skip);
  const totals: Totals = {};
  for (const item of items) addInto(totals, item, skipped);
  return prune(totals);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function addInto(totals: Totals, source: object, skip: ReadonlySet<string>): void {
  for (const [key, value] of Object.entries(source)) {
    // "__proto__" can arrive as an own key from JSON.parse; assigning it would replace the prototype.
    if (skip.has(key) || key === "__proto__") continue;
    const current = totals[key];
    if (typeof value === "number" && Number.isFinite(value)) {
      if (current === undefined || typeof current === "number") totals[key] = (current ?? 0) + value;
    } else if (isPlainObject(value)) {
      if (current === undefined) {
        const nested: Totals = {};
        totals[key] = nested;
        addInto(nested, value, skip);
      } else if (isPlainObject(current)) {
        addInto(current, value, skip);
      }
    }
  }
}

/** Drops nested objects that ended up with no numeric field (references, protocol settings). */
function prune(totals: Totals): Totals {
  for (const [key, value] of Object.entries(totals)) {
    if (isPlainObject(value)) {
      prune(value);
      if (Object.keys(value).length === 0) delete totals[key];
    }
  }
  return totals;
}
