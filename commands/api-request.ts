/**
 * Checking a raw `/array api` request against the endpoint table and the array's version before anything is
 * sent: the path (with the nearest valid one when it is unknown), the method, every query parameter, and the
 * body (JSON, never a secret).
 */
import type { PlannedRequest } from "../src/core/define-command.js";
import { editDistance } from "../src/core/suggest.js";
import { UserFacingError } from "../src/errors.js";
import { totalsAllowed } from "../src/flashblade/wire.js";
import { ENDPOINTS, type EndpointSpec, type HttpMethod } from "../src/rest-spec/endpoints.js";
import { atLeast, findEndpoint } from "../src/rest-spec/versions.js";
import { SECRET_FIELD } from "./catalogue/generic/fields.js";

const PATHS = [...new Set(ENDPOINTS.filter((e) => e.versioned).map((e) => e.path))];

/** The versioned paths closest to `path`, best first. */
export function nearestPaths(path: string, max = 3): string[] {
  return PATHS.map((p) => ({ p, d: editDistance(path, p) }))
    .sort((a, b) => a.d - b.d || a.p.localeCompare(b.p))
    .slice(0, max)
    .map((x) => x.p);
}

export interface RawRequest {
  method: HttpMethod;
  path: string;
  query: Record<string, string>;
  body?: Record<string, unknown>;
  endpoint: EndpointSpec;
}

function fail(code: string, msg: string): never {
  throw new UserFacingError(code, msg);
}

/** Parses `<path>[?query]` and the JSON body against the table; version checks come in `checkVersion`. */
export function parseRaw(method: HttpMethod, target: string, bodyText: string | undefined): RawRequest {
  const q = target.indexOf("?");
  let path = (q < 0 ? target : target.slice(0, q)).trim();
  const search = q < 0 ? "" : target.slice(q + 1);
  path = path.replace(/^\/api\/\d+\.\d+(\.\d+)?(?=\/)/, "").replace(/\/+$/, "");
  if (!path.startsWith("/")) path = `/${path}`;
  const endpoint = findEndpoint(method, path);
  if (!endpoint?.versioned) {
    const methods = ENDPOINTS.filter((e) => e.versioned && e.path === path).map((e) => e.method);
    if (methods.length > 0)
      fail("API_METHOD_NOT_ALLOWED", `${method} is not allowed on ${path}; it takes ${methods.join(", ")}.`);
    fail(
      "API_UNKNOWN_PATH",
      `${path} is not a REST 1.x endpoint. Nearest: ${nearestPaths(path)
        .map((p) => `\`${p}\``)
        .join(", ")}.`,
    );
  }
  const query: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(search)) {
    // Own keys only: `constructor` or `__proto__` typed as a parameter is unknown, not a prototype property.
    if (!Object.hasOwn(endpoint.params, k)) {
      const known = Object.keys(endpoint.params);
      fail(
        "API_UNKNOWN_PARAMETER",
        `${method} ${path} takes no parameter \`${k}\`; it takes ${known.length ? known.join(", ") : "none"}.`,
      );
    }
    if (Object.hasOwn(query, k)) fail("API_DUPLICATE_PARAMETER", `\`${k}\` is given twice.`);
    query[k] = v;
  }
  const req: RawRequest = { method, path, query, endpoint };
  if (bodyText !== undefined) {
    if (method === "GET" || method === "DELETE") fail("API_BODY_NOT_ALLOWED", `${method} takes no body.`);
    let body: unknown;
    try {
      body = JSON.parse(bodyText);
    } catch (err) {
      fail(
        "API_BAD_JSON",
        `The body is not JSON: ${err instanceof Error ? err.message : String(err)}. Quote it: '{"key": "value"}'.`,
      );
    }
    if (!body || typeof body !== "object" || Array.isArray(body))
      fail("API_BAD_JSON", "The body must be a JSON object.");
    const secret = secretKey(body);
    if (secret)
      fail(
        "API_SECRET_IN_BODY",
        `\`${secret}\` is a secret; typed here it would stay in Slack's history and the audit log. Set it on the array itself.`,
      );
    req.body = body as Record<string, unknown>;
  }
  return req;
}

function secretKey(v: unknown, at = ""): string | undefined {
  if (!v || typeof v !== "object") return undefined;
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const path = at ? `${at}.${k}` : k;
    if (SECRET_FIELD.test(k)) return path;
    const inner = secretKey(x, path);
    if (inner) return inner;
  }
  return undefined;
}

/** "needs REST 1.12, fb-lab-02 runs 1.10"; also parameters this version dropped. */
export function checkVersion(req: RawRequest, array: string, version: string): void {
  if (!atLeast(version, req.endpoint.since)) {
    fail(
      "ARRAY_VERSION_TOO_OLD",
      `${req.method} ${req.path} needs REST ${req.endpoint.since}, ${array} runs ${version}. Nothing was sent.`,
    );
  }
  for (const k of ["total", "total_only"]) {
    if (req.query[k] !== undefined && !totalsAllowed(req.path, version))
      fail(
        "API_PARAMETER_NOT_IN_VERSION",
        `\`${k}\` is not in REST ${version} for ${req.path}. Nothing was sent.`,
      );
  }
}

export function plannedOf(req: RawRequest): PlannedRequest {
  return {
    method: req.method,
    path: req.path,
    ...(Object.keys(req.query).length ? { query: req.query } : {}),
    ...(req.body === undefined ? {} : { body: req.body }),
  };
}
