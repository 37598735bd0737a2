/**
 * `sort=field[-][,field2[-]]`: the minus is appended for descending (fact sheet §6). Numbers sort numerically,
 * strings case-insensitively, missing and null values last in either direction; equal keys keep their order.
 */

import { badRequest } from "../types.js";
import { compilePath, type FieldGetter } from "./field-path.js";
import { fold } from "./fold.js";

export interface SortKey {
  readonly field: string;
  readonly descending: boolean;
}

const SORT_KEY = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*-?$/;

export function parseSort(keys: readonly string[]): SortKey[] {
  return keys.map((raw) => {
    const key = raw.trim();
    if (!SORT_KEY.test(key)) {
      const hint = key.startsWith("-") ? ` For descending order append the minus: '${key.slice(1)}-'.` : "";
      throw badRequest(
        `Invalid sort key ${JSON.stringify(raw)}: expected a field name, optionally followed by '-'.${hint}`,
        "sort",
      );
    }
    const descending = key.endsWith("-");
    return { field: descending ? key.slice(0, -1) : key, descending };
  });
}

/** Type ranks so mixed columns still sort deterministically; missing values are handled apart. */
const RANK = { number: 0, string: 1, boolean: 2, other: 3 } as const;

interface SortValue {
  readonly rank: number;
  readonly value: number | string;
}

function sortValue(raw: unknown): SortValue | undefined {
  switch (typeof raw) {
    case "undefined":
      return undefined;
    case "number":
      return { rank: RANK.number, value: raw };
    case "string":
      return { rank: RANK.string, value: fold(raw) };
    case "boolean":
      return { rank: RANK.boolean, value: raw ? 1 : 0 };
    default:
      return raw === null ? undefined : { rank: RANK.other, value: 0 };
  }
}

function compareValues(a: SortValue | undefined, b: SortValue | undefined, descending: boolean): number {
  if (a === undefined || b === undefined) {
    if (a === b) return 0;
    return a === undefined ? 1 : -1;
  }
  let order = a.rank - b.rank;
  if (order === 0 && a.value !== b.value) order = a.value < b.value ? -1 : 1;
  return descending ? -order : order;
}

/** Returns a sorted copy; every item's keys are read once (decorate, sort, undecorate). */
export function sortItems<T>(items: readonly T[], keys: readonly SortKey[]): T[] {
  if (keys.length === 0) return [...items];
  const getters: FieldGetter[] = keys.map((key) => compilePath(key.field));
  const decorated = items.map((item) => ({ item, values: getters.map((get) => sortValue(get(item))) }));
  decorated.sort((x, y) => {
    for (let i = 0; i < keys.length; i++) {
      const order = compareValues(x.values[i], y.values[i], keys[i]?.descending ?? false);
      if (order !== 0) return order;
    }
    return 0;
  });
  return decorated.map((entry) => entry.item);
}
