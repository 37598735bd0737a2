import type { IncomingHttpHeaders } from "node:http";
import { isSecretKey, isSecretObjectKey } from "../rest-spec/secrets.js";

/** Header and query names whose values are secrets: they never reach the request log. */
const SECRET_HEADERS = new Set(["api-token", "x-auth-token", "authorization", "cookie", "set-cookie"]);
const SECRET_QUERY_KEYS = new Set(["api-token"]);
const REDACTED = "[redacted]";

export interface LoggedRequest {
  /** Clock time (ms) when the request arrived. */
  at: number;
  method: string;
  path: string;
  /** The query string as received (without "?"), secrets blanked. */
  query: string;
  headers: Record<string, string>;
  /** The request body as received (JSON with secret-looking fields blanked), when there was one. */
  body?: string;
  /** Status sent, or "reset" when the connection was destroyed unanswered; undefined while in flight. */
  outcome?: number | "reset";
}

export interface SimStats {
  /** Successful logins. */
  logins: number;
  failedLogins: number;
  logouts: number;
  /** Requests seen, keyed `METHOD /full/path`. */
  requests: Record<string, number>;
  total: number;
  inFlight: number;
  maxInFlight: number;
  /** Client connections open now, and the most open at once (how many sockets a client pool holds). */
  connections: number;
  maxConnections: number;
  /** The last requests, oldest first. */
  recent: LoggedRequest[];
}

export function redactQuery(query: string): string {
  if (query === "") return query;
  return query
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const rawKey = eq < 0 ? pair : pair.slice(0, eq);
      let key = rawKey;
      try {
        key = decodeURIComponent(rawKey.replace(/\+/g, " "));
      } catch {
        // a malformed escape is logged as received
      }
      return SECRET_QUERY_KEYS.has(key.toLowerCase()) ? `${rawKey}=${REDACTED}` : pair;
    })
    .join("&");
}

/**
 * A JSON body with the values of the interface's secret fields blanked (the one rule of src/rest-spec/secrets.ts,
 * so `access_key_id` or `public_key` stay readable and any case of `password` goes); anything else is kept
 * only as its length.
 */
export function redactBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), (k, v: unknown) =>
      isSecretKey(k) && !(isSecretObjectKey(k) && v !== null && typeof v === "object") ? REDACTED : v,
    );
  } catch {
    return `[${body.length} bytes, not JSON]`;
  }
}

export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = SECRET_HEADERS.has(name) ? REDACTED : Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/** Counters and a bounded log of recent requests, for tests and the control interface. */
export class RequestLog {
  private logins = 0;
  private failedLogins = 0;
  private logouts = 0;
  private total = 0;
  private inFlight = 0;
  private maxInFlight = 0;
  private connections = 0;
  private maxConnections = 0;
  private requests = new Map<string, number>();
  private recent: LoggedRequest[] = [];

  constructor(
    private readonly clock: () => number,
    private readonly keep = 200,
  ) {}

  begin(method: string, path: string, query: string, headers: IncomingHttpHeaders): LoggedRequest {
    const entry: LoggedRequest = {
      at: this.clock(),
      method,
      path,
      query: redactQuery(query),
      headers: redactHeaders(headers),
    };
    const key = `${method} ${path}`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    this.total++;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    this.recent.push(entry);
    if (this.recent.length > this.keep) this.recent.splice(0, this.recent.length - this.keep);
    return entry;
  }

  finish(entry: LoggedRequest, outcome: number | "reset"): void {
    if (entry.outcome !== undefined) return;
    entry.outcome = outcome;
    this.inFlight--;
  }

  /** A client connection opened (+1) or closed (-1). */
  countConnection(delta: 1 | -1): void {
    this.connections += delta;
    this.maxConnections = Math.max(this.maxConnections, this.connections);
  }

  countLogin(ok: boolean): void {
    if (ok) this.logins++;
    else this.failedLogins++;
  }

  countLogout(): void {
    this.logouts++;
  }

  stats(): SimStats {
    return {
      logins: this.logins,
      failedLogins: this.failedLogins,
      logouts: this.logouts,
      requests: Object.fromEntries(this.requests),
      total: this.total,
      inFlight: this.inFlight,
      maxInFlight: this.maxInFlight,
      connections: this.connections,
      maxConnections: this.maxConnections,
      recent: this.recent.map((e) => ({ ...e, headers: { ...e.headers } })),
    };
  }

  /** Zeroes the counters; requests still in flight keep counting towards `inFlight`. */
  reset(): void {
    this.logins = 0;
    this.failedLogins = 0;
    this.logouts = 0;
    this.total = 0;
    this.maxInFlight = this.inFlight;
    this.maxConnections = this.connections;
    this.requests.clear();
    this.recent = [];
  }
}
