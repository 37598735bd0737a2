/**
 * Checking a raw `/array api` request against the endpoint table and the array's version before anything is
 * sent: the path (with the nearest valid one when it is unknown), the method, every query parameter, and the
 * body (JSON, never a secret).
 */
import type { PlannedRequest } from "../src/core/catalogue/define-command.js";
import { editDistance } from "../src/core/words/suggest.js";
import { type ErrorCode, UserFacingError } from "../src/errors.js";
import { totalsAllowed } from "../src/flashblade/wire.js";
import { findSecretKey } from "../src/redact.js";
import { dialect } from "../src/rest-spec/dialect.js";
import { findOperation, OPERATIONS, type Operation } from "../src/rest-spec/operations.js";
import { isSecretKey } from "../src/rest-spec/secrets.js";
import { atLeast, generationOf } from "../src/rest-spec/versions.js";

/** Every versioned path of either generation (canonical, and 1.x's where it differs). */
const PATHS = [
  ...new Set(OPERATIONS.filter((o) => o.versioned).flatMap((o) => (o.v1 ? [o.path, o.v1.path] : [o.path]))),
];

/** The versioned paths closest to `path`, best first. */
export function nearestPaths(path: string, max = 3): string[] {
  return PATHS.map((p) => ({ p, d: editDistance(path, p) }))
    .sort((a, b) => a.d - b.d || a.p.localeCompare(b.p))
    .slice(0, max)
    .map((x) => x.p);
}

export interface RawRequest {
  method: PlannedRequest["method"];
  path: string;
  query: Record<string, string>;
  body?: Record<string, unknown>;
  /** The operation of the table it names, in either generation's words. */
  op: Operation;
}

function fail(code: ErrorCode, msg: string): never {
  throw new UserFacingError(code, msg);
}

/** Parses `<path>[?query]` and the JSON body against the table; version checks come in `checkVersion`. */
export function parseRaw(
  method: RawRequest["method"],
  target: string,
  bodyText: string | undefined,
): RawRequest {
  const q = target.indexOf("?");
  let path = (q < 0 ? target : target.slice(0, q)).trim();
  const search = q < 0 ? "" : target.slice(q + 1);
  path = path.replace(/^\/api\/\d+\.\d+(\.\d+)?(?=\/)/, "").replace(/\/+$/, "");
  if (!path.startsWith("/")) path = `/${path}`;
  const op = findOperation(method, path);
  if (!op?.versioned) {
    const methods = OPERATIONS.filter((o) => o.versioned && (o.path === path || o.v1?.path === path)).map(
      (o) => o.method,
    );
    if (methods.length > 0)
      fail("API_METHOD_NOT_ALLOWED", `${method} is not allowed on ${path}; it takes ${methods.join(", ")}.`);
    fail(
      "API_UNKNOWN_PATH",
      `${path} is not a REST endpoint. Nearest: ${nearestPaths(path)
        .map((p) => `\`${p}\``)
        .join(", ")}.`,
    );
  }
  // Either generation's name of a parameter is taken: the array's dialect sends it under its own.
  const names = { ...op.v1?.params, ...op.params };
  const query: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(search)) {
    // Own keys only: `constructor` or `__proto__` typed as a parameter is unknown, not a prototype property.
    if (!Object.hasOwn(names, k)) {
      const known = Object.keys(names);
      fail(
        "API_UNKNOWN_PARAMETER",
        `${method} ${path} takes no parameter \`${k}\`; it takes ${known.length ? known.join(", ") : "none"}.`,
      );
    }
    if (isSecretKey(k)) secretRefused(k);
    if (Object.hasOwn(query, k)) fail("API_DUPLICATE_PARAMETER", `\`${k}\` is given twice.`);
    query[k] = v;
  }
  const req: RawRequest = { method, path, query, op };
  if (bodyText !== undefined) {
    if (method === "GET" || method === "DELETE") fail("API_BODY_NOT_ALLOWED", `${method} takes no body.`);
    const body = jsonBody(bodyText);
    if (body === undefined) fail("API_BAD_JSON", NOT_JSON);
    if (!body || typeof body !== "object" || Array.isArray(body))
      fail("API_BAD_JSON", "The body must be a JSON object.");
    // Keys are matched after parsing, folded (`BIND_PASSWORD`, `bind\u005fpassword`, nested), before anything
    // is stored, logged or audited; the audit keeps the line with the body redacted.
    const secret = findSecretKey(body);
    if (secret) secretRefused(secret);
    req.body = body as Record<string, unknown>;
  }
  return req;
}

/**
 * Why a body was refused, quoting none of it: JSON.parse's own message quotes the text, and a body that does not
 * parse cannot be redacted by key (`{"password":"x"}` typed in Slack without quotes reaches us as `{password:x}`).
 */
export const NOT_JSON =
  'The body is not JSON. Typed without quotes around it, its own quotes are read as quoting and lost: quote the whole body, \'{"key": "value"}\'. Nothing was sent.';

/** The body parsed, or undefined when it is not JSON. */
export function jsonBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function secretRefused(key: string): never {
  fail(
    "API_SECRET_IN_BODY",
    `\`${key}\` is a secret; typed here it would stay in Slack's history. Set it on the array itself, or with the catalogue verb that asks for it in a private dialog. Nothing was sent.`,
  );
}

/** "needs REST 1.12, fb-lab-02 runs 1.10"; also parameters this version lacks or dropped. */
export function checkVersion(req: RawRequest, array: string, version: string): void {
  const d = dialect(version);
  const since = d.since(req.op);
  if (since === undefined) {
    const other = generationOf(version) === 2 ? req.op.v1?.since : req.op.v2?.since;
    fail(
      "ARRAY_VERSION_TOO_OLD",
      `${req.method} ${req.path} is not in REST ${generationOf(version)}.x (it exists from REST ${other ?? "?"}), ${array} runs ${version}. Nothing was sent.`,
    );
  }
  if (!atLeast(version, since)) {
    fail(
      "ARRAY_VERSION_TOO_OLD",
      `${req.method} ${req.path} needs REST ${since}, ${array} runs ${version}. Nothing was sent.`,
    );
  }
  const params = d.params(req.op);
  for (const k of Object.keys(req.query)) {
    const wire = d.wireName(req.op, k);
    const dropped = (k === "total" || k === "total_only") && !totalsAllowed(req.path, version);
    if (dropped || !Object.hasOwn(params, wire))
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
