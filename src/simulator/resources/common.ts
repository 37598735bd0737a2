/** Helpers shared by the resource handlers: selectors, version checks, responses. */
import { atLeast } from "../../rest-spec/versions.js";
import { type ListOptions, listItems } from "../query/index.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest, type SimResult } from "../types.js";

export type Handler = (req: SimRequest, state: SimState) => SimResult;

export function at(req: SimRequest, version: string): boolean {
  return atLeast(req.version, version);
}

export function ok(items: unknown[]): SimResult {
  return { items };
}

export const EMPTY: SimResult = { empty: true };

/** A GET answered by the shared listing engine. */
export function listing<T extends object>(
  items: readonly T[],
  req: SimRequest,
  opts: Partial<ListOptions> = {},
): SimResult {
  return { envelope: listItems(items, req, { totals: "none", ...opts }) };
}

/** The two parameters may not both be given. */
export function exclusive(req: SimRequest, a: string, b: string): void {
  if (req.query.has(a) && req.query.has(b)) throw badRequest(`'${a}' and '${b}' cannot be used together.`);
}

/** Rejects a parameter the request's version does not have (or no longer has). */
export function paramSince(req: SimRequest, param: string, since: string, until?: string): void {
  if (!req.query.has(param)) return;
  if (!atLeast(req.version, since)) throw badRequest(`'${param}' is not accepted before REST ${since}.`);
  if (until !== undefined && atLeast(req.version, until)) {
    throw badRequest(`'${param}' is not accepted from REST ${until} on.`);
  }
}

export function rejectParam(req: SimRequest, param: string, hint: string): void {
  if (req.query.has(param)) throw badRequest(`'${param}' is not a parameter here; ${hint}`);
}

/** A list parameter that must be present and non-empty. */
export function requireList(req: SimRequest, param: string): string[] {
  const list = req.query.list(param)?.filter((s) => s !== "");
  if (!list || list.length === 0) throw badRequest(`'${param}' is required.`);
  return list;
}

/** Resolves every name; the first unknown one is a 400 that names it. */
export function resolveAll<T>(
  names: readonly string[],
  lookup: (name: string) => T | undefined,
  what: string,
): T[] {
  const out: T[] = [];
  const seen = new Set<T>();
  for (const n of names) {
    const item = lookup(n);
    if (item === undefined) throw badRequest(`${what} '${n}' does not exist.`, n);
    if (!seen.has(item)) {
      seen.add(item);
      out.push(item);
    }
  }
  return out;
}

/** Index by id, for `ids` selectors over maps keyed by name. */
export function byId<T extends { id: string }>(items: Iterable<T>): Map<string, T> {
  const m = new Map<string, T>();
  for (const i of items) m.set(i.id, i);
  return m;
}

/**
 * Selection for file systems and snapshots on PATCH/DELETE: singular `name`, or from `idsSince` `ids`
 * instead (never both).
 */
export function selectByNameOrIds<T extends { id: string }>(
  req: SimRequest,
  byName: Map<string, T>,
  what: string,
  idsSince = "1.9",
): T[] {
  rejectParam(req, "names", `select with 'name' (one name)${at(req, idsSince) ? " or 'ids'" : ""}.`);
  paramSince(req, "ids", idsSince);
  exclusive(req, "name", "ids");
  const name = req.query.string("name");
  if (name !== undefined && name !== "") return resolveAll([name], (n) => byName.get(n), what);
  const ids = req.query.list("ids")?.filter((s) => s !== "");
  if (ids && ids.length > 0) {
    const index = byId(byName.values());
    return resolveAll(ids, (i) => index.get(i), `${what} with id`);
  }
  throw badRequest(at(req, idsSince) ? "'name' or 'ids' is required." : "'name' is required.");
}

/**
 * Selection by `names` or `ids` (most collections). With `required`, one of them must be given: a PATCH or
 * DELETE never applies to everything by omission.
 */
export function selectByNamesOrIds<T extends { id: string }>(
  req: SimRequest,
  byName: Map<string, T>,
  what: string,
  required = true,
): T[] | undefined {
  exclusive(req, "names", "ids");
  const names = req.query.list("names")?.filter((s) => s !== "");
  if (names && names.length > 0) return resolveAll(names, (n) => byName.get(n), what);
  const ids = req.query.list("ids")?.filter((s) => s !== "");
  if (ids && ids.length > 0) {
    const index = byId(byName.values());
    return resolveAll(ids, (i) => index.get(i), `${what} with id`);
  }
  if (required) throw badRequest("'names' or 'ids' is required.");
  return undefined;
}

/** Items whose `names` were asked for, so the listing engine only sees the candidates (big arrays). */
export function preselect<T>(req: SimRequest, byName: Map<string, T>, all: () => Iterable<T>): Iterable<T> {
  const names = req.query.list("names");
  if (!names || names.length === 0 || req.query.has("ids")) return all();
  const out: T[] = [];
  for (const n of new Set(names)) {
    const item = byName.get(n);
    if (item !== undefined) out.push(item);
  }
  return out;
}

/**
 * The policy or member side of a membership request: resources named by `<prefix>_names` or `<prefix>_ids`
 * (never both), or undefined when neither is given.
 */
export function pickMembership<T extends { id: string }>(
  req: SimRequest,
  prefix: "policy" | "member",
  byName: Map<string, T>,
  what: string,
): T[] | undefined {
  exclusive(req, `${prefix}_names`, `${prefix}_ids`);
  const names = req.query.list(`${prefix}_names`)?.filter((s) => s !== "");
  if (names?.length) return resolveAll(names, (n) => byName.get(n), what);
  const ids = req.query.list(`${prefix}_ids`)?.filter((s) => s !== "");
  if (ids?.length) {
    const index = byId(byName.values());
    return resolveAll(ids, (i) => index.get(i), `${what} with id`);
  }
  return undefined;
}
