/**
 * Shared plumbing of the 2.x-only families the simulator models (export, SMB, network access, QoS, WORM
 * policies, legal holds, maintenance windows, …): their records live in the generic collections (keyed by path,
 * one state), and each family module keeps its rules beside its handlers. References are written as the 2.x
 * models have them (`{name, id, resource_type}`).
 */
import type { Json } from "../models/body.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { collection } from "./generic.js";

export type Rec = Json & { name: string; id: string };

/** A family's records by name (the collection's own map: changes are the array's). */
export function records(state: SimState, path: string): Map<string, Rec> {
  return collection(state, path).items as Map<string, Rec>;
}

export function refOf(item: { name: string; id: string }, resourceType: string): Json {
  return { name: item.name, id: item.id, resource_type: resourceType };
}

/** The array itself as a policy's `location` or a fleet's member. */
export function arrayRef(state: SimState): Json {
  return { name: state.array.name, id: state.array.id, resource_type: "arrays" };
}

/**
 * One object picked by `<prefix>_names` or `<prefix>_ids` (never both) from `byName`: the policy a rule is added
 * to, the file system an export serves, … `what` names it in errors.
 */
export function pickOne(
  req: SimRequest,
  prefix: string,
  byName: Map<string, Rec>,
  what: string,
  required = true,
): Rec | undefined {
  const names = req.query.list(`${prefix}_names`)?.filter((s) => s !== "");
  const ids = req.query.list(`${prefix}_ids`)?.filter((s) => s !== "");
  if (names?.length && ids?.length)
    throw badRequest(`'${prefix}_names' and '${prefix}_ids' cannot be used together.`);
  const wanted = names?.length ? names : ids;
  if (!wanted?.length) {
    if (required) throw badRequest(`'${prefix}_names' or '${prefix}_ids' is required.`);
    return undefined;
  }
  if (wanted.length > 1) throw badRequest(`Give exactly one ${what.toLowerCase()}.`);
  const key = wanted[0] as string;
  const found = names?.length ? byName.get(key) : [...byName.values()].find((r) => r.id === key);
  if (!found) throw badRequest(`${what} '${key}' does not exist.`, key);
  return found;
}

/** Fields a body may not set (read-only in the model), named in a 400 rather than silently dropped. */
export function rejectReadOnly(body: Json, fields: readonly string[], model: string): void {
  const bad = fields.filter((f) => f in body);
  if (bad.length > 0)
    throw badRequest(`${bad.map((f) => `'${f}'`).join(", ")} cannot be set on ${model} (read-only).`);
}

/** Allows only the named fields in a body. */
export function onlyFields(body: Json, allowed: readonly string[], model: string): void {
  const bad = Object.keys(body).filter((k) => !allowed.includes(k));
  if (bad.length > 0)
    throw badRequest(
      `${bad.map((f) => `'${f}'`).join(", ")} is not a field of ${model}; it takes ${allowed.map((f) => `'${f}'`).join(", ")}.`,
    );
}

export function oneOf(value: unknown, allowed: readonly string[], field: string): void {
  if (value !== undefined && !allowed.includes(value as string))
    throw badRequest(
      `'${field}' must be one of ${allowed.join(", ")} (got ${JSON.stringify(value)}).`,
      field,
    );
}
