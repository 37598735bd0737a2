/**
 * Finds the current version of an item by its cursor key in O(1), so a continuation page costs O(limit) even
 * though handlers hand over the whole collection on every request.
 */

export type KeyOf = (item: object) => unknown;

/** The id when there is one, else the name, else the object itself. */
export function makeKeyOf(idField: string, nameField: string): KeyOf {
  return (item) => {
    const record = item as Record<string, unknown>;
    const id = Object.hasOwn(item, idField) ? record[idField] : undefined;
    if (typeof id === "string" || typeof id === "number") return id;
    const name = Object.hasOwn(item, nameField) ? record[nameField] : undefined;
    if (typeof name === "string" || typeof name === "number") return name;
    return item;
  };
}

// Keyed by the array a handler passes. A handler that keeps one array and mutates it in place reuses the index;
// each hit is verified against the array, and a stale index is rebuilt at most once per request.
const cache = new WeakMap<readonly object[], Map<unknown, number>>();

export function createResolver<T extends object>(
  items: readonly T[],
  keyOf: KeyOf,
  lookup: ((key: string | number) => object | undefined) | undefined,
): (key: unknown) => T | undefined {
  if (lookup !== undefined) {
    return (key) =>
      typeof key === "string" || typeof key === "number" ? (lookup(key) as T | undefined) : (key as T);
  }
  let rebuilt = false;
  let index = cache.get(items);
  const rebuild = (): Map<unknown, number> => {
    const fresh = new Map<unknown, number>();
    items.forEach((item, position) => {
      fresh.set(keyOf(item), position);
    });
    cache.set(items, fresh);
    rebuilt = true;
    return fresh;
  };
  const find = (map: Map<unknown, number>, key: unknown): T | undefined => {
    const position = map.get(key);
    const item = position === undefined ? undefined : items[position];
    return item !== undefined && keyOf(item) === key ? item : undefined;
  };
  return (key) => {
    index ??= rebuild();
    const hit = find(index, key);
    if (hit !== undefined || rebuilt) return hit;
    index = rebuild();
    return find(index, key);
  };
}
