/**
 * Selection by `names` (or the endpoint's other name parameters) and `ids` (fact sheet §6): every requested
 * element must exist, and `ids` cannot be combined with `name` or `names`.
 */
import { badRequest, type SimQuery } from "../types.js";
import { compilePath } from "./field-path.js";

export interface SelectOptions {
  nameParams?: readonly string[];
  nameField?: string;
  idField?: string;
  /** What the collection holds, for "… does not exist" messages (default "Item"). */
  noun?: string;
}

export function selectItems<T extends object>(
  items: readonly T[],
  query: SimQuery,
  opts: SelectOptions,
): readonly T[] {
  if (query.has("ids")) {
    const clash = ["name", "names"].find((param) => query.has(param));
    if (clash !== undefined) {
      throw badRequest(
        `The ids parameter cannot be combined with ${clash}; select by one or the other.`,
        "ids",
      );
    }
  }
  const noun = opts.noun ?? "Item";
  const selectors: { param: string; field: string; describe: (value: string) => string }[] = [
    ...(opts.nameParams ?? ["names"]).map((param) => ({
      param,
      field: opts.nameField ?? "name",
      describe: (value: string) => `${noun} '${value}' does not exist.`,
    })),
    {
      param: "ids",
      field: opts.idField ?? "id",
      describe: (value: string) => `${noun} with id '${value}' does not exist.`,
    },
  ];
  let selected = items;
  for (const { param, field, describe } of selectors) {
    const wanted = query.list(param);
    if (wanted === undefined) continue;
    if (wanted.length === 0)
      throw badRequest(`The ${param} parameter is empty; give at least one value.`, param);
    const get = compilePath(field);
    const present = new Set<string>();
    for (const item of items) {
      const value = scalarText(get(item));
      if (value !== undefined) present.add(value);
    }
    const missing = wanted.find((value) => !present.has(value));
    if (missing !== undefined) throw badRequest(describe(missing), missing);
    const wantedSet = new Set(wanted);
    selected = selected.filter((item) => {
      const value = scalarText(get(item));
      return value !== undefined && wantedSet.has(value);
    });
  }
  return selected;
}

function scalarText(value: unknown): string | undefined {
  return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
}
