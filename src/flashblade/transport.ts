/**
 * HTTPS to one array: an undici Pool with keep-alive, verified TLS unless the array is marked insecure, and
 * failures classified by whether the request can have reached the array. That distinction drives retries:
 * a request that failed while connecting was never sent and may be retried whatever its method.
 */
import { createSecureContext } from "node:tls";
import { buildConnector, type Dispatcher, Pool } from "undici";
import type { ResolvedArrayConfig } from "../config/arrays.js";
import type { HttpMethod } from "../rest-spec/endpoints.js";
import type { Query } from "./types.js";

export interface WireRequest {
  method: HttpMethod;
  /** Absolute path, starting with /api. */
  path: string;
  query?: Query;
  /** The session token, sent as `x-auth-token` (or, with `bearer`, the access token). Never logged. */
  token?: string;
  /** Send `token` as `Authorization: Bearer` (an OAuth2 access token) instead of `x-auth-token`. */
  bearer?: boolean;
  /** Extra headers (the API token at login). Never logged. */
  headers?: Record<string, string>;
  body?: unknown;
  /** A body sent as it is, its content-type in `headers` (the token endpoint's form); never logged. */
  rawBody?: string;
  /** A shorter read time-out than the array's (probes, version negotiation: a hung array must cost little). */
  timeoutMs?: number;
}

export interface WireResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body as it came, for a file answered as `application/octet-stream` (then `text` is empty). */
  bytes?: Uint8Array;
}

/** Whether an answer is a file (logs, a keytab) rather than JSON. */
function isFile(headers: WireResponse["headers"]): boolean {
  const type = headers["content-type"];
  return (
    (Array.isArray(type) ? type[0] : type)?.toLowerCase().startsWith("application/octet-stream") === true
  );
}

/**
 * - connect: failed before a connection existed (refused, DNS, connect time-out): never sent.
 * - tls: the certificate was refused during the handshake: never sent, and retrying cannot help.
 * - timeout: sent, no (complete) answer within the read time-out: may have been applied.
 * - socket: the connection broke after the request was written: may have been applied.
 */
export type FailureKind = "connect" | "tls" | "timeout" | "socket";

export class TransportFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    readonly reason: string,
    readonly errCode: string | undefined,
    cause: unknown,
  ) {
    super(reason, { cause });
    this.name = "TransportFailure";
  }
  /** True when the request cannot have reached the array. */
  get notSent(): boolean {
    return this.kind === "connect" || this.kind === "tls";
  }
}

const CONNECT_PHASE = Symbol("connectPhase");
const USER_AGENT = "array-chatops/0.1";
const TLS_CODE = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|ERR_SSL|UNABLE_TO_GET_ISSUER/;

/** Encodes a query: lists comma-joined, undefined dropped, `+` for spaces (as real clients send). */
export function encodeQuery(query: Query | undefined): string {
  if (!query) return "";
  let params: URLSearchParams | undefined;
  for (const key in query) {
    const value = query[key];
    if (value === undefined) continue;
    params ??= new URLSearchParams();
    params.append(key, Array.isArray(value) ? value.join(",") : String(value));
  }
  return params ? `?${params.toString()}` : "";
}

function errCodeOf(err: unknown): string | undefined {
  if (err && typeof err === "object" && "code" in err && typeof err.code === "string") return err.code;
  return undefined;
}

/** What is wrong with a certificate, in words; the OpenSSL code itself stays in errCode, for the log. */
function tlsProblem(code: string): string {
  if (code.includes("SELF_SIGNED")) return "it is self-signed";
  if (code.includes("EXPIRED")) return "it has expired";
  if (code.includes("NOT_YET_VALID")) return "it is not valid yet";
  if (code.includes("HOSTNAME") || code.includes("ALTNAME")) return "it was issued for another host name";
  return "it is not signed by a CA the bot trusts";
}

export function classify(err: unknown, cfg: Pick<ResolvedArrayConfig, "timeouts">): TransportFailure {
  if (err instanceof TransportFailure) return err;
  const code = errCodeOf(err);
  const inConnect = Boolean(err && typeof err === "object" && CONNECT_PHASE in err);
  if (code !== undefined && TLS_CODE.test(code)) {
    return new TransportFailure(
      "tls",
      `TLS certificate not trusted: ${tlsProblem(code)}; give the array's CA in ca_file, or set insecure: true`,
      code,
      err,
    );
  }
  if (code === "UND_ERR_CONNECT_TIMEOUT") {
    return new TransportFailure("connect", `no connection within ${cfg.timeouts.connectMs} ms`, code, err);
  }
  if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
    return new TransportFailure("timeout", `no answer within ${cfg.timeouts.readMs} ms`, code, err);
  }
  const connectReasons: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ENOTFOUND: "host not found",
    EAI_AGAIN: "host name lookup failed",
    EHOSTUNREACH: "host unreachable",
    ENETUNREACH: "network unreachable",
  };
  const known = code === undefined ? undefined : connectReasons[code];
  if (known !== undefined) return new TransportFailure("connect", known, code, err);
  // Reasons are read by people: the library's code (UND_ERR_SOCKET, ECONNRESET) stays in errCode, for the log.
  if (inConnect) return new TransportFailure("connect", "the connection could not be set up", code, err);
  return new TransportFailure("socket", "the connection broke before the answer arrived", code, err);
}

/**
 * What the connector hands tls.connect for one array. One TLS context, built once: without it tls.connect builds
 * a context per connection (parsing the CA again each time, and ~16 KiB more native memory per socket, kept by
 * malloc after the socket closes), and the faults of a large fleet reconnect often.
 */
export function tlsOptions(cfg: Pick<ResolvedArrayConfig, "insecure" | "ca">) {
  return {
    rejectUnauthorized: !cfg.insecure,
    secureContext: createSecureContext(cfg.ca === undefined ? {} : { ca: cfg.ca }),
  };
}

export class Transport {
  readonly #pool: Pool;
  readonly #cfg: ResolvedArrayConfig;

  /** `onDisconnect` hears about every connection that closes (idle time-out, the array going away). */
  constructor(cfg: ResolvedArrayConfig, onDisconnect: (reason: string) => void = () => {}) {
    this.#cfg = cfg;
    const base = buildConnector({ timeout: cfg.timeouts.connectMs, ...tlsOptions(cfg) });
    // Tag errors raised while connecting, so classify() knows the request was never written.
    const connect: buildConnector.connector = (opts, callback) => {
      base(opts, (...args) => {
        const err = args[0];
        if (err) Object.defineProperty(err, CONNECT_PHASE, { value: true });
        callback(...args);
      });
    };
    this.#pool = new Pool(cfg.origin, {
      connections: cfg.connections,
      connect,
      keepAliveTimeout: 4_000,
      headersTimeout: cfg.timeouts.readMs,
      bodyTimeout: cfg.timeouts.readMs,
    });
    this.#pool.on("disconnect", (_origin, _targets, err) => onDisconnect(errCodeOf(err) ?? err.message));
  }

  async request(req: WireRequest): Promise<WireResponse> {
    // Built by assignment rather than spreads: this runs on every call.
    const headers: Record<string, string> = { accept: "application/json", "user-agent": USER_AGENT };
    const options: Dispatcher.RequestOptions = {
      method: req.method,
      path: req.query === undefined ? req.path : req.path + encodeQuery(req.query),
      headers,
    };
    if (req.body !== undefined) {
      headers["content-type"] = "application/json";
      options.body = JSON.stringify(req.body);
    }
    if (req.rawBody !== undefined) options.body = req.rawBody;
    if (req.token !== undefined) {
      if (req.bearer === true) headers["authorization"] = `Bearer ${req.token}`;
      else headers["x-auth-token"] = req.token;
    }
    if (req.headers !== undefined) Object.assign(headers, req.headers);
    if (req.timeoutMs !== undefined) {
      options.headersTimeout = req.timeoutMs;
      options.bodyTimeout = req.timeoutMs;
    }
    try {
      const res = await this.#pool.request(options);
      if (res.statusCode < 300 && isFile(res.headers)) {
        const bytes = new Uint8Array(await res.body.arrayBuffer());
        return { status: res.statusCode, headers: res.headers, text: "", bytes };
      }
      const text = await res.body.text();
      return { status: res.statusCode, headers: res.headers, text };
    } catch (err) {
      const cfg = this.#cfg;
      throw classify(
        err,
        req.timeoutMs === undefined ? cfg : { timeouts: { ...cfg.timeouts, readMs: req.timeoutMs } },
      );
    }
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }
}

export function headerValue(headers: WireResponse["headers"], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}
