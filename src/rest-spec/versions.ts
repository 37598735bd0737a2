import { ENDPOINTS, type EndpointSpec, type HttpMethod } from "./endpoints.js";

/**
 * Every REST version we speak, ascending, 1.x then 2.x. 1.8.1 exists on real arrays and in the SDK; 2.0–2.28 are
 * the versions of the 2.x table (src/rest-spec/endpoints-2x.ts, generated from the specs).
 */
export const KNOWN_VERSIONS = [
  "1.0",
  "1.1",
  "1.2",
  "1.3",
  "1.4",
  "1.5",
  "1.6",
  "1.7",
  "1.8",
  "1.8.1",
  "1.9",
  "1.10",
  "1.11",
  "1.12",
  ...Array.from({ length: 29 }, (_, i) => `2.${i}` as const),
] as const;

/** The REST generation a version belongs to: 1 or 2. */
export function generationOf(version: ApiVersion): 1 | 2 {
  return version.startsWith("2.") ? 2 : 1;
}

export type ApiVersion = string;

/** Numeric comparison of dotted versions: "1.10" > "1.9", "1.8.1" > "1.8". */
export function compareVersions(a: ApiVersion, b: ApiVersion): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

export function atLeast(version: ApiVersion, min: ApiVersion): boolean {
  return compareVersions(version, min) >= 0;
}

/**
 * Parses "1.0-1.12", "1.4,1.8", "2.0-2.24" or "1.0-1.12,2.0-2.24" into the known versions it covers, ascending
 * (so 1.x before 2.x).
 */
export function parseVersionRange(spec: string): ApiVersion[] {
  const out = new Set<ApiVersion>();
  for (const part of spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [lo, hi] = part.split("-").map((s) => s.trim());
    if (!lo) continue;
    const upper = hi ?? lo;
    for (const v of KNOWN_VERSIONS) {
      if (compareVersions(v, lo) >= 0 && compareVersions(v, upper) <= 0) out.add(v);
    }
  }
  return [...out].sort(compareVersions);
}

// Method, then path: looked up on every call, and two lookups of (usually internalised) strings cost less
// than building a "METHOD path" key and hashing it each time.
const byMethod = new Map<HttpMethod, Map<string, EndpointSpec>>();
for (const e of ENDPOINTS) {
  let paths = byMethod.get(e.method);
  if (!paths) {
    paths = new Map();
    byMethod.set(e.method, paths);
  }
  paths.set(e.path, e);
}

export function findEndpoint(method: HttpMethod, path: string): EndpointSpec | undefined {
  return byMethod.get(method)?.get(path);
}

/** Whether `version` serves `method path` according to the endpoint table. */
export function endpointAvailable(method: HttpMethod, path: string, version: ApiVersion): boolean {
  const e = findEndpoint(method, path);
  return e !== undefined && atLeast(version, e.since);
}
