import type { IncomingHttpHeaders } from "node:http";
import type { Logger } from "pino";
import { type Dialect, dialect } from "../rest-spec/dialect.js";
import type { HttpMethod } from "../rest-spec/endpoints.js";
import { OPERATIONS, type Operation } from "../rest-spec/operations.js";
import { atLeast, generationOf } from "../rest-spec/versions.js";
import { type ApiResponse, errorResponse } from "./api-response.js";
import { isMultipart, parseMultipart } from "./models/multipart.js";
import { parseQuery } from "./query/index.js";
import { fleetPeer } from "./resources/fleets.js";
import { recordFailedLogin, recordLogin, recordLogout } from "./resources/session-log.js";
import type { SessionStore } from "./sessions.js";
import type { SimState } from "./state.js";
import { type SimHandler, SimHttpError, type SimResult } from "./types.js";
import { answer2x, read2x, type Wire2xRequest } from "./wire-2x.js";

/** Everything the router needs, passed in by the front end. */
export interface RouterContext {
  /** Served versions, ascending. */
  readonly versions: readonly string[];
  /** API token → username. */
  readonly apiTokens: ReadonlyMap<string, string>;
  readonly sessions: SessionStore;
  /** The user an `Authorization: Bearer` access token acts for (oauth.ts); undefined when refused. */
  bearer?(authorization: string | undefined): string | undefined;
  readonly state: SimState;
  readonly logger: Logger;
  findHandler(method: HttpMethod, path: string): SimHandler<SimState> | undefined;
  loginBanner(): string;
  /** Counts logins and logouts for the request log. */
  onLogin(ok: boolean): void;
  onLogout(): void;
}

export interface ApiRequest {
  method: string;
  /** Path below `/api`, e.g. "/1.12/file-systems" or "/login". */
  path: string;
  /** Raw query string, without "?". */
  search: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The client's address, for the array's session log (`/sessions`). */
  remoteAddress?: string;
}

// PUT: the two 2.x operations that replace (a workload preset, a batch of tags).
const METHODS = new Set<string>(["GET", "POST", "PATCH", "DELETE", "PUT"]);
const VERSION_SEGMENT = /^\/(\d+\.\d+(?:\.\d+)?)(\/.*)?$/;

/** Per generation, the versioned paths of the table → the methods that exist on them, to tell 404 from 405. */
const methodsByPath = { 1: new Map<string, string[]>(), 2: new Map<string, string[]>() };
for (const o of OPERATIONS) {
  if (!o.versioned) continue;
  for (const [gen, path] of [
    [1, o.v1?.path],
    [2, o.v2 ? o.path : undefined],
  ] as const) {
    if (path === undefined) continue;
    const list = methodsByPath[gen].get(path) ?? [];
    list.push(o.method);
    methodsByPath[gen].set(path, list);
  }
}

/**
 * The handlers' own language: the 1.12 dialect (paths and parameter names), what they were written in. A request
 * of any version is read into it and its answer written back out in the request's dialect, so a handler and the
 * rules beside it exist once for both generations.
 */
const HANDLERS = dialect("1.12");

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export async function routeApi(ctx: RouterContext, req: ApiRequest): Promise<ApiResponse> {
  const path = req.path.length > 1 && req.path.endsWith("/") ? req.path.slice(0, -1) : req.path;
  switch (path) {
    case "/api_version":
      return req.method === "GET"
        ? { status: 200, body: { versions: [...ctx.versions] } }
        : notAllowed(req.method, path, ["GET"]);
    case "/login":
      return login(ctx, req);
    case "/logout":
      return logout(ctx, req);
    case "/login-banner":
      return loginBanner(ctx, req);
  }
  const m = VERSION_SEGMENT.exec(path);
  if (m === null) return errorResponse(404, `No such path: /api${path}.`, path);
  const version = m[1] as string;
  const rest = m[2] ?? "/";
  if (!ctx.versions.includes(version)) {
    const served = `${ctx.versions[0]} to ${ctx.versions.at(-1)}`;
    return inGeneration(
      version,
      errorResponse(
        404,
        `REST version ${version} is not supported by this array (it serves ${served}).`,
        path,
      ),
    );
  }
  // Some clients log in and out on a versioned path after choosing a version.
  if (rest === "/login") return login(ctx, req);
  if (rest === "/logout") return logout(ctx, req);
  return inGeneration(version, await versioned(ctx, req, version, rest));
}

async function versioned(
  ctx: RouterContext,
  req: ApiRequest,
  version: string,
  rest: string,
): Promise<ApiResponse> {
  const d = dialect(version);
  const allowed = methodsByPath[d.generation].get(rest);
  if (allowed === undefined) return errorResponse(404, `No such endpoint: /api/${version}${rest}.`, rest);
  if (!METHODS.has(req.method) || !allowed.includes(req.method)) return notAllowed(req.method, rest, allowed);
  const method = req.method as HttpMethod;
  const op = d.find(method, rest);
  if (op === undefined || !d.serves(op)) {
    const since = op === undefined ? "" : ` (it exists from ${d.since(op)})`;
    return errorResponse(404, `${method} ${rest} is not available in REST ${version}${since}.`, rest);
  }
  const user =
    ctx.sessions.touch(header(req.headers, "x-auth-token")) ??
    ctx.bearer?.(header(req.headers, "authorization"));
  if (user === undefined) {
    return errorResponse(
      403,
      "The session token (x-auth-token) or access token (Authorization: Bearer) is missing, unknown or expired. " +
        "Log in again with POST /api/login, or exchange a new token at /oauth2/1.0/token.",
      rest,
    );
  }
  // The handler's path: 1.x's where the operation has one, else the canonical (a 2.x-only operation).
  const path = op.v1 ? HANDLERS.path(op) : op.path;
  const handler = ctx.findHandler(method, path);
  if (handler === undefined) return errorResponse(404, `No handler for ${method} ${rest}.`, rest);
  try {
    let search = req.search;
    // purity_fb sends no body for an empty model; arrays take a body-less PATCH as `{}`.
    const type = req.headers["content-type"];
    const form = Array.isArray(type) ? type[0] : type;
    let body: unknown = isMultipart(form)
      ? parseMultipart(req.body, form as string)
      : (parseBody(req.body) ?? (method === "PATCH" ? {} : undefined));
    let extra: Wire2xRequest | undefined;
    if (d.generation === 2) {
      extra = read2x(d, op, search, ctx.state.array.name, (name) => fleetPeer(ctx.state, name));
      ({ search, body } = inHandlerTerms(d, op, extra.search, body));
    }
    const query = parseQuery(search);
    // A request in another fleet member's context runs on that member's state, and says so in `context`.
    const state = extra?.peer ?? ctx.state;
    const result = wrapResult(await handler({ method, path, version, query, body, user }, state));
    return extra === undefined ? result : answer2x(d, op, extra, result, state.array);
  } catch (err) {
    if (err instanceof SimHttpError) return errorResponse(err.status, err.message, err.context ?? rest);
    ctx.logger.error({ err, method, path: rest, version }, "simulator handler failed");
    return errorResponse(500, "Internal error in the simulated array; see the simulator's log.", rest);
  }
}

/** A request in `d`'s terms → the handlers' (`continuation_token` → `token`, a create's `?names=` → body `name`). */
function inHandlerTerms(
  d: Dialect,
  op: Operation,
  search: string,
  body: unknown,
): { search: string; body: unknown } {
  // Repeated keys stay as they are (the handlers refuse or fold them as on 1.x); the rest go through the dialect.
  const single: Record<string, string> = {};
  const out = new URLSearchParams();
  for (const [k, v] of new URLSearchParams(search)) {
    const name = d.canonicalName(op, k);
    if (Object.hasOwn(single, name)) out.append(HANDLERS.wireName(op, name), v);
    else single[name] = v;
  }
  const req = HANDLERS.request(op, single, body);
  for (const [k, v] of Object.entries(req.query)) out.append(k, String(v));
  return { search: out.toString(), body: req.body };
}

/**
 * An answer in the handlers' (1.x) shape → the request's generation: 2.x lists carry `continuation_token` and
 * `total_item_count` at the top level instead of `pagination_info`, and errors the 2.x body (403 with a top-level
 * `message` beside `errors`).
 */
export function inGeneration(version: string, res: ApiResponse): ApiResponse {
  if (generationOf(version) === 1 || res.body === null || typeof res.body !== "object") return res;
  const d = dialect(version);
  const body = res.body as Record<string, unknown>;
  if (res.status >= 400) {
    const first = (body.errors as { message?: string; context?: string }[] | undefined)?.[0];
    return { ...res, body: d.errorBody(res.status, first?.message ?? "", first?.context ?? "") };
  }
  if (!("pagination_info" in body)) return res;
  const { items, pagination_info: _p, ...extra } = body;
  return { ...res, body: d.envelope((items as unknown[]) ?? [], HANDLERS.readPage(body), extra) };
}

function parseBody(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new SimHttpError(400, `The request body is not valid JSON: ${why}`, "body");
  }
}

function wrapResult(result: SimResult): ApiResponse {
  const status = result.status ?? 200;
  if (result.file !== undefined) return { status, file: result.file };
  if (result.envelope !== undefined) return { status, body: result.envelope };
  if (result.items !== undefined) return { status, body: { items: result.items } };
  return { status };
}

function notAllowed(method: string, path: string, allowed: readonly string[]): ApiResponse {
  const res = errorResponse(405, `${method} is not allowed on ${path}; use ${allowed.join(", ")}.`, path);
  res.headers = { allow: allowed.join(", ") };
  return res;
}

function login(ctx: RouterContext, req: ApiRequest): ApiResponse {
  if (req.method !== "POST") return notAllowed(req.method, "/login", ["POST"]);
  // Real clients send the header; the spec documents the query parameter. Both are accepted.
  const token =
    header(req.headers, "api-token") ?? new URLSearchParams(req.search).get("api-token") ?? undefined;
  const location = req.remoteAddress ?? "";
  if (token === undefined || token === "") {
    ctx.onLogin(false);
    recordFailedLogin(ctx.state, location);
    return errorResponse(400, "Missing API token: send it in the api-token request header.", "api-token");
  }
  const username = ctx.apiTokens.get(token);
  if (username === undefined) {
    ctx.onLogin(false);
    recordFailedLogin(ctx.state, location);
    return errorResponse(400, "Unable to log in: the API token is not valid.", "api-token");
  }
  ctx.onLogin(true);
  const session = ctx.sessions.open(username);
  recordLogin(ctx.state, username, session, location);
  return { status: 200, headers: { "x-auth-token": session }, body: { username } };
}

function logout(ctx: RouterContext, req: ApiRequest): ApiResponse {
  if (req.method !== "POST") return notAllowed(req.method, "/logout", ["POST"]);
  // purity_fb logs out before every login, without a token: answer it like any other logout.
  const token = header(req.headers, "x-auth-token");
  ctx.sessions.end(token);
  recordLogout(ctx.state, token, req.remoteAddress ?? "");
  ctx.onLogout();
  return { status: 200 };
}

function loginBanner(ctx: RouterContext, req: ApiRequest): ApiResponse {
  const highest = ctx.versions.at(-1);
  if (highest === undefined || !atLeast(highest, "1.10")) {
    return errorResponse(404, "No such path: /api/login-banner (it exists from REST 1.10).", "/login-banner");
  }
  if (req.method !== "GET") return notAllowed(req.method, "/login-banner", ["GET"]);
  return { status: 200, body: { login_banner: ctx.loginBanner() } };
}
