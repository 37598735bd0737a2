import type { IncomingHttpHeaders } from "node:http";
import type { Logger } from "pino";
import { ENDPOINTS, type HttpMethod } from "../rest-spec/endpoints.js";
import { atLeast, findEndpoint } from "../rest-spec/versions.js";
import { type ApiResponse, errorResponse } from "./api-response.js";
import { parseQuery } from "./query/index.js";
import type { SessionStore } from "./sessions.js";
import type { SimState } from "./state.js";
import { type SimHandler, SimHttpError, type SimResult } from "./types.js";

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
}

const METHODS = new Set<string>(["GET", "POST", "PATCH", "DELETE"]);
const VERSION_SEGMENT = /^\/(\d+\.\d+(?:\.\d+)?)(\/.*)?$/;

/** Versioned paths of the table → the methods that exist on them, to tell 404 from 405. */
const methodsByPath = new Map<string, string[]>();
for (const e of ENDPOINTS) {
  if (!e.versioned) continue;
  const list = methodsByPath.get(e.path) ?? [];
  list.push(e.method);
  methodsByPath.set(e.path, list);
}

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
    return errorResponse(
      404,
      `REST version ${version} is not supported by this array (it serves ${served}).`,
      path,
    );
  }
  // Some clients log in and out on a versioned path after choosing a version.
  if (rest === "/login") return login(ctx, req);
  if (rest === "/logout") return logout(ctx, req);
  return versioned(ctx, req, version, rest);
}

async function versioned(
  ctx: RouterContext,
  req: ApiRequest,
  version: string,
  rest: string,
): Promise<ApiResponse> {
  const allowed = methodsByPath.get(rest);
  if (allowed === undefined) return errorResponse(404, `No such endpoint: /api/${version}${rest}.`, rest);
  if (!METHODS.has(req.method) || !allowed.includes(req.method)) return notAllowed(req.method, rest, allowed);
  const method = req.method as HttpMethod;
  const endpoint = findEndpoint(method, rest);
  if (endpoint === undefined || !atLeast(version, endpoint.since)) {
    const since = endpoint === undefined ? "" : ` (it exists from ${endpoint.since})`;
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
  const handler = ctx.findHandler(method, rest);
  if (handler === undefined) return errorResponse(404, `No handler for ${method} ${rest}.`, rest);
  try {
    const query = parseQuery(req.search);
    // purity_fb sends no body for an empty model; arrays take a body-less PATCH as `{}`.
    const body = parseBody(req.body) ?? (method === "PATCH" ? {} : undefined);
    const result = await handler({ method, path: rest, version, query, body, user }, ctx.state);
    return wrapResult(result);
  } catch (err) {
    if (err instanceof SimHttpError) return errorResponse(err.status, err.message, err.context ?? rest);
    ctx.logger.error({ err, method, path: rest, version }, "simulator handler failed");
    return errorResponse(500, "Internal error in the simulated array; see the simulator's log.", rest);
  }
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
  if (token === undefined || token === "") {
    ctx.onLogin(false);
    return errorResponse(400, "Missing API token: send it in the api-token request header.", "api-token");
  }
  const username = ctx.apiTokens.get(token);
  if (username === undefined) {
    ctx.onLogin(false);
    return errorResponse(400, "Unable to log in: the API token is not valid.", "api-token");
  }
  ctx.onLogin(true);
  return { status: 200, headers: { "x-auth-token": ctx.sessions.open(username) }, body: { username } };
}

function logout(ctx: RouterContext, req: ApiRequest): ApiResponse {
  if (req.method !== "POST") return notAllowed(req.method, "/logout", ["POST"]);
  // purity_fb logs out before every login, without a token: answer it like any other logout.
  ctx.sessions.end(header(req.headers, "x-auth-token"));
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
