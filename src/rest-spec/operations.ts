/**
 * One operation table over both REST generations, joined from the two generated tables: the 1.x table
 * (endpoints.ts) and the 2.x table (endpoints-2x.ts, whose `v1` names the 1.x endpoint-method each operation
 * continues). An operation's canonical names are the newest ones (2.28: the 2.x surface only grows), so `/smtp`
 * and `/smtp-servers` are one operation, and the 1.x `token`, `start`, `expose`, … are other names of the
 * canonical `continuation_token`, `offset`, `expose_api_token`. A 1.x parameter with no 2.x counterpart keeps its
 * name. Nothing here is per endpoint: it is all read from the tables.
 */
import { ENDPOINTS, type EndpointSpec, type HttpMethod, type ParamKind } from "./endpoints.js";
import { ENDPOINTS_2X, type Endpoint2xSpec } from "./endpoints-2x.js";

export interface Operation {
  /** Stable id, from the canonical path and the method (`file-systems.policies.get`). */
  readonly id: string;
  readonly method: HttpMethod;
  /** Canonical path (2.28's), below the version. */
  readonly path: string;
  /** First path segment. */
  readonly family: string;
  readonly versioned: boolean;
  /** The 1.x table's row, when 1.x has this operation. */
  readonly v1?: EndpointSpec;
  /** The 2.x table's row, when 2.x has this operation. */
  readonly v2?: Endpoint2xSpec;
  /** Every canonical parameter, with its kind (2.x's where both have it). */
  readonly params: Readonly<Record<string, ParamKind>>;
  /** 1.x parameter name → canonical name, for the renamed ones. */
  readonly from1x: ReadonlyMap<string, string>;
  /** Canonical name → 1.x name, for the renamed ones. */
  readonly to1x: ReadonlyMap<string, string>;
  /**
   * A create that names its object with the `names` query parameter in 2.x and with `name` in its 1.x body (1.x
   * has no query parameter for it): POST /file-systems. Derived from the tables, not listed.
   */
  readonly nameInBody1x: boolean;
}

function build(): Operation[] {
  const byKey = new Map(ENDPOINTS.map((e) => [`${e.method} ${e.path}`, e]));
  const out: Operation[] = [];
  for (const v2 of ENDPOINTS_2X) {
    const v1 = v2.v1 ? byKey.get(`${v2.method} ${v2.v1.path}`) : undefined;
    if (v2.v1 && !v1) throw new Error(`the 2.x table maps ${v2.method} ${v2.v1.path}, which 1.x lacks`);
    if (v1) byKey.delete(`${v1.method} ${v1.path}`);
    const from1x = new Map(Object.entries(v2.v1?.renames ?? {}));
    const params: Record<string, ParamKind> = {};
    for (const [name, kind] of Object.entries(v1?.params ?? {})) params[from1x.get(name) ?? name] = kind;
    Object.assign(params, v2.params);
    const named1x = v1 !== undefined && ("names" in v1.params || "name" in v1.params);
    out.push({
      id: v2.id,
      method: v2.method,
      path: v2.path,
      family: v2.family,
      versioned: v2.versioned,
      ...(v1 ? { v1 } : {}),
      v2,
      params,
      from1x,
      to1x: new Map([...from1x].map(([a, b]) => [b, a])),
      nameInBody1x:
        v2.method === "POST" && v1 !== undefined && "names" in v2.params && !named1x && !from1x.has("names"),
    });
  }
  // A 1.x row the 2.x facts do not continue stays an operation of its own (none today: the mapping covers all).
  for (const v1 of byKey.values()) {
    out.push({
      id: `${v1.path.split("/").filter(Boolean).join(".")}.${v1.method.toLowerCase()}`,
      method: v1.method,
      path: v1.path,
      family: v1.path.split("/")[1] ?? "",
      versioned: v1.versioned,
      v1,
      params: v1.params,
      from1x: new Map(),
      to1x: new Map(),
      nameInBody1x: false,
    });
  }
  return out;
}

/** Every operation of both generations. */
export const OPERATIONS: readonly Operation[] = build();

const byId = new Map(OPERATIONS.map((o) => [o.id, o]));
// Method, then path: each operation under its canonical path and, where it differs, its 1.x path.
const byPath = new Map<HttpMethod, Map<string, Operation>>();
for (const o of OPERATIONS) {
  let paths = byPath.get(o.method);
  if (!paths) {
    paths = new Map();
    byPath.set(o.method, paths);
  }
  for (const p of [o.path, o.v1?.path]) {
    if (p === undefined) continue;
    const other = paths.get(p);
    if (other && other !== o)
      throw new Error(`${o.method} ${p} names two operations: ${other.id} and ${o.id}`);
    paths.set(p, o);
  }
}

export function operationById(id: string): Operation | undefined {
  return byId.get(id);
}

/** The operation `method path` names in either generation (canonical or 1.x path, below the version). */
export function findOperation(method: HttpMethod, path: string): Operation | undefined {
  return byPath.get(method)?.get(path);
}
