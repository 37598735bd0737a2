/**
 * Finds the current version of a cursor's item without scanning the collection. Handlers render a fresh array
 * on every request, usually in the same order, so the item's position at the first page (plus the shift seen
 * since) is checked first; only when that guess fails is the array indexed, at most once per request.
 */
import type { Cursor } from "./cursors.js";

export type KeyOf = (item: object) => unknown;

/** The id when there is one, else the name; undefined for items with neither (resumed by position). */
export function makeKeyOf(idField: string, nameField: string): KeyOf {
  return (item) => {
    const record = item as Record<string, unknown>;
    const id = Object.hasOwn(item, idField) ? record[idField] : undefined;
    if (typeof id === "string" || typeof id === "number") return id;
    const name = Object.hasOwn(item, nameField) ? record[nameField] : undefined;
    if (typeof name === "string" || typeof name === "number") return name;
    return undefined;
  };
}

/**
 * Positions of `subset` (an in-order subsequence of `items`, as selection and filtering produce) in `items`.
 * One merge pass, done only when a continuation token is issued.
 */
export function positionsIn(items: readonly object[], subset: readonly object[], offset: number): number[] {
  const positions: number[] = [];
  let j = 0;
  for (let i = offset; i < subset.length; i++) {
    const wanted = subset[i];
    while (j < items.length && items[j] !== wanted) j++;
    positions.push(j);
    j++;
  }
  return positions;
}

/** Resolves the cursor's i-th key to the item as it is now, or undefined when it was deleted. */
export function createResolver<T extends object>(
  items: readonly T[],
  keyOf: KeyOf,
  cursor: Cursor,
  lookup: ((key: string | number) => object | undefined) | undefined,
): (i: number) => T | undefined {
  let index: Map<unknown, number> | undefined;
  const buildIndex = (): Map<unknown, number> => {
    const built = new Map<unknown, number>();
    items.forEach((item, position) => {
      built.set(keyOf(item), position);
    });
    return built;
  };
  return (i) => {
    const key = cursor.keys[i];
    const first = cursor.positions[i] ?? 0;
    if (key === undefined) return items[first];
    if (lookup !== undefined && (typeof key === "string" || typeof key === "number")) {
      return lookup(key) as T | undefined;
    }
    const guess = items[first + cursor.shift.value];
    if (guess !== undefined && keyOf(guess) === key) return guess;
    index ??= buildIndex();
    const position = index.get(key);
    if (position === undefined) return undefined;
    cursor.shift.value = position - first;
    return items[position];
  };
}
