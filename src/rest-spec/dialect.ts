/**
 * The small dialect of one REST version: how an operation of the one table (operations.ts) is spelled on the
 * wire in that version. The client asks it how to phrase a request and read an answer; the simulator's router
 * asks it how to read a request and phrase an answer; the policy asks it what a raw request means. Everything
 * per endpoint (paths, parameter renames, first versions) comes from the generated tables; what is written here
 * is what differs between the generations as a whole: the envelope, the paging keys and the error body.
 */
import type { HttpMethod, ParamKind } from "./endpoints.js";
import { findOperation, type Operation } from "./operations.js";
import { type ApiVersion, atLeast, generationOf } from "./versions.js";

export type WireQuery = Readonly<Record<string, unknown>>;

/** A list answer's paging facts, whichever generation carried them. */
export interface PageInfo {
  continuationToken?: string | null;
  totalItemCount?: number;
}

export interface Dialect {
  readonly version: ApiVersion;
  readonly generation: 1 | 2;
  /** The paging parameters of this generation (1.x `token`/`start`, 2.x `continuation_token`/`offset`). */
  readonly paging: { readonly token: string; readonly offset: string };
  /** The operation a request names: by this version's wire path, the canonical path, or the 1.x path. */
  find(method: HttpMethod, path: string): Operation | undefined;
  /** The first version of this generation that has `op`; undefined when the generation lacks it. */
  since(op: Operation): ApiVersion | undefined;
  /** Whether this version serves `op`. */
  serves(op: Operation): boolean;
  /** `op`'s path below `/api/<version>` in this version. */
  path(op: Operation): string;
  /** `op`'s query parameters in this version, by wire name (those added later only from their version). */
  params(op: Operation): Readonly<Record<string, ParamKind>>;
  /** A parameter named by a caller (canonically, or by its 1.x name) as this version spells it. */
  wireName(op: Operation, name: string): string;
  /** A parameter as this version spells it → its canonical name. */
  canonicalName(op: Operation, wireName: string): string;
  /** A caller's query (canonical or 1.x names) in this version's names. */
  toWire(op: Operation, query: WireQuery): Record<string, unknown>;
  /** A query received in this version's names → canonical names. */
  fromWire(op: Operation, query: WireQuery): Record<string, unknown>;
  /**
   * A whole request as this version sends it: the query's names (toWire), and the created object's name where
   * the generation carries it (2.x `?names=`, 1.x body `name`, for the operations whose `nameInBody1x` says so).
   */
  request(op: Operation, query: WireQuery, body: unknown): { query: Record<string, unknown>; body: unknown };
  /** The paging facts of a list answer's body. */
  readPage(body: Readonly<Record<string, unknown>>): PageInfo;
  /** The list envelope this generation answers with. */
  envelope(items: readonly unknown[], page: PageInfo, extra?: Readonly<Record<string, unknown>>): object;
  /** The error body this generation answers with. */
  errorBody(status: number, message: string, context: string): object;
}

const PAGING_1X = { token: "token", offset: "start" } as const;
const PAGING_2X = { token: "continuation_token", offset: "offset" } as const;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

/** 2.x: the body's `name` goes to `?names=`; 1.x: `names` (either generation's) goes into the body. */
function placeName(gen: 1 | 2, op: Operation, query: Json, body: unknown): { query: Json; body: unknown } {
  if (!op.nameInBody1x) return { query, body };
  if (gen === 2) {
    if (!isObject(body) || typeof body.name !== "string" || query.names !== undefined) return { query, body };
    const { name, ...rest } = body;
    return { query: { ...query, names: [name] }, body: rest };
  }
  if (query.names === undefined) return { query, body };
  const { names, ...rest } = query;
  const name = Array.isArray(names) ? names[0] : String(names).split(",")[0];
  return { query: rest, body: { ...(isObject(body) ? body : {}), name } };
}

function rename(query: WireQuery, name: (key: string) => string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) out[name(k)] = v;
  return out;
}

function dialect1(version: ApiVersion): Dialect {
  const d: Dialect = {
    version,
    generation: 1,
    paging: PAGING_1X,
    find: (method, path) => findOperation(method, path),
    since: (op) => op.v1?.since,
    serves: (op) => op.v1 !== undefined && atLeast(version, op.v1.since),
    path: (op) => op.v1?.path ?? op.path,
    params: (op) => op.v1?.params ?? {},
    // The 2.x paging names go out as 1.x's on every operation; the rest by the operation's own renames.
    wireName: (op, name) =>
      op.to1x.get(name) ?? (name === PAGING_2X.token ? "token" : name === PAGING_2X.offset ? "start" : name),
    canonicalName: (op, wire) => op.from1x.get(wire) ?? wire,
    toWire: (op, q) => rename(q, (k) => d.wireName(op, k)),
    fromWire: (op, q) => rename(q, (k) => d.canonicalName(op, k)),
    request: (op, q, body) => placeName(1, op, d.toWire(op, q), body),
    readPage(body) {
      const info = body.pagination_info as Record<string, unknown> | null | undefined;
      if (info === undefined || info === null) return {};
      return pageInfo(info.continuation_token, info.total_item_count);
    },
    envelope: (items, page, extra) => ({
      items,
      pagination_info: {
        continuation_token: page.continuationToken ?? null,
        total_item_count: page.totalItemCount ?? items.length,
      },
      ...extra,
    }),
    errorBody: (_status, message, context) => ({ errors: [{ context, message }] }),
  };
  return d;
}

function dialect2(version: ApiVersion): Dialect {
  const d: Dialect = {
    version,
    generation: 2,
    paging: PAGING_2X,
    // A 2.x wire path is the canonical path; a caller may still name an operation by its 1.x path.
    find: (method, path) => findOperation(method, path),
    since: (op) => op.v2?.since,
    serves: (op) => op.v2 !== undefined && atLeast(version, op.v2.since),
    path: (op) => op.path,
    params(op) {
      const added = op.v2?.paramsSince ?? {};
      const out: Record<string, ParamKind> = {};
      for (const [k, kind] of Object.entries(op.v2?.params ?? {})) {
        const at = added[k];
        if (at === undefined || atLeast(version, at)) out[k] = kind;
      }
      return out;
    },
    wireName: (op, name) =>
      op.from1x.get(name) ??
      (name === PAGING_1X.token ? PAGING_2X.token : name === PAGING_1X.offset ? PAGING_2X.offset : name),
    canonicalName: (_op, wire) => wire,
    toWire: (op, q) => rename(q, (k) => d.wireName(op, k)),
    fromWire: (op, q) => rename(q, (k) => d.canonicalName(op, k)),
    request: (op, q, body) => placeName(2, op, d.toWire(op, q), body),
    readPage: (body) => pageInfo(body.continuation_token, body.total_item_count),
    envelope: (items, page, extra) => ({
      items,
      ...(page.continuationToken ? { continuation_token: page.continuationToken } : {}),
      total_item_count: page.totalItemCount ?? items.length,
      ...extra,
    }),
    // 2.x arrays answer a refused session with a top-level message (auth.md §8; the SDK reads both shapes).
    errorBody: (status, message, context) =>
      status === 403 ? { message, errors: [{ context, message }] } : { errors: [{ context, message }] },
  };
  return d;
}

function pageInfo(token: unknown, total: unknown): PageInfo {
  const out: PageInfo = {};
  if (token !== undefined) out.continuationToken = token === null ? null : String(token);
  if (typeof total === "number") out.totalItemCount = total;
  return out;
}

const dialects = new Map<ApiVersion, Dialect>();

/** The dialect of `version` (made once per version). */
export function dialect(version: ApiVersion): Dialect {
  let d = dialects.get(version);
  if (!d) {
    d = generationOf(version) === 2 ? dialect2(version) : dialect1(version);
    dialects.set(version, d);
  }
  return d;
}

const VERSION_PREFIX = /^\/api\/(\d+\.\d+(?:\.\d+)?)(?=\/)/;

/** A request in canonical terms: its operation and its query under canonical names. */
export interface CanonicalRequest {
  readonly op: Operation;
  readonly query: Record<string, unknown>;
  /** The version the request was read in, when one was given or the path carried it. */
  readonly version?: ApiVersion;
}

/**
 * What a request means, whatever generation it is phrased in: the path may carry its `/api/<version>` prefix and
 * be a 1.x, 2.x or canonical path; the query may use either generation's names. With a version (given, or read
 * from the prefix) the names are read in that version's dialect; without one, a parameter is read both ways (a
 * name that is a canonical parameter and also another one's 1.x name counts as both), so a rule keyed by either
 * reading applies: the stricter answer when the generation is unknown.
 */
export function canonicalRequest(
  method: HttpMethod,
  rawPath: string,
  query: WireQuery = {},
  version?: ApiVersion,
): CanonicalRequest | undefined {
  const m = VERSION_PREFIX.exec(rawPath);
  const path = m ? rawPath.slice(m[0].length) : rawPath;
  const v = version ?? m?.[1];
  const op = findOperation(method, path);
  if (!op) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(query)) for (const c of canonicalNames(op, k, v)) out[c] = val;
  return { op, query: out, ...(v === undefined ? {} : { version: v }) };
}

/**
 * The canonical names a parameter as given may stand for: one in a known version's dialect; without a version,
 * the name itself and, where it is a 1.x name renamed in 2.x, the 2.x name too.
 */
export function canonicalNames(op: Operation, key: string, version?: ApiVersion): string[] {
  if (version !== undefined) return [dialect(version).canonicalName(op, key)];
  const renamed = op.from1x.get(key);
  return renamed === undefined || renamed === key ? [key] : [key, renamed];
}
