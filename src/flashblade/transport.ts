/**
 * HTTPS to one array: an undici Pool with keep-alive, verified TLS unless the array is marked insecure, and
 * failures classified by whether the request can have reached the array. That distinction drives retries:
 * a request that failed while connecting was never sent and may be retried whatever its method.
 */
import type { Socket } from "node:net";
import { TLSSocket } from "node:tls";
import { buildConnector, Client, type Dispatcher, Pool } from "undici";
import type { ResolvedArrayConfig } from "../config/arrays.js";
import type { HttpMethod } from "../rest-spec/endpoints.js";
import { URGENT_EXTRA } from "./limiter.js";
import type { SocketBudget, SocketHolder } from "./socket-budget.js";
import { type HeldContext, holdContext, keyShareGroup, ownCopy, tlsOptions } from "./tls-context.js";
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
  rawBody?: string | Uint8Array;
  /** A shorter read time-out than the array's (probes, version negotiation: a hung array must cost little). */
  timeoutMs?: number;
  /**
   * A call of an approved change, which a second person waits on (urgency.ts): not held for the array's own sockets. Set from
   * the caller's context when the call is made, before the limiter, whose queue runs calls in other contexts.
   */
  urgent?: boolean;
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
  /** The bot's own socket bound was full (nothing was sent): not the array's failure. */
  get local(): boolean {
    return this.errCode === SOCKETS_BUSY;
  }
  /** True when the request cannot have reached the array. */
  get notSent(): boolean {
    return this.kind === "connect" || this.kind === "tls";
  }
}

const CONNECT_PHASE = Symbol("connectPhase");
/** The code of a connect that gave up waiting for a place under the socket bound (socket-budget.ts). */
const SOCKETS_BUSY = "ECHATOPS_SOCKETS_BUSY";
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
  if (code === SOCKETS_BUSY) {
    return new TransportFailure(
      "connect",
      `no place within ${cfg.timeouts.readMs} ms: ${err instanceof Error ? err.message : "the bot's connections were busy"} (array_pool.max_sockets)`,
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

export interface TransportOptions {
  /** Hears about every connection that closes (idle time-out, the array going away, shed for another array). */
  onDisconnect?: (reason: string) => void;
  /** The bound on sockets to all arrays together (pool.ts holds one for the whole pool). */
  budget?: SocketBudget;
  /** A socket unused this long is closed (default 4 s). */
  idleSocketMs?: number;
  now?: () => number;
}

const DEFAULT_IDLE_SOCKET_MS = 4_000;
/**
 * Sockets an array may open beyond `connections`, for urgent calls only (as many as the limiter lets them run
 * beyond its own bound): an approval's five reads go out at once, while other calls still use at most
 * `connections` sockets. Giving every call a fifth socket took places from other arrays at 1,000 arrays.
 */
const URGENT_SOCKETS = URGENT_EXTRA;

export class Transport implements SocketHolder {
  #pool: Pool | undefined;
  readonly #newPool: () => Pool;
  #closed = false;
  readonly #cfg: ResolvedArrayConfig;
  /** Each open socket and the undici client it serves. */
  readonly #sockets = new Map<Socket, Client>();
  readonly #shed = new WeakSet<Socket>();
  readonly #budget: SocketBudget | undefined;
  readonly #unregister: () => void;
  readonly #now: () => number;
  #inFlight = 0;
  /** Calls in flight a person waits on (urgency.ts). */
  #urgentInFlight = 0;
  #lastUsed = 0;
  /** Connects waiting for a place or under way. */
  #connecting = 0;
  /**
   * The newest TLS session ticket the array gave. undici's connector caches tickets through WeakRefs only, so a
   * garbage collection between two polls (30 s apart, sockets closed after 4 s idle) dropped the ticket and every
   * reconnect paid a full handshake; holding the same object here keeps its cache entry alive (a few KiB per array).
   */
  #ticket: Buffer | undefined;
  /** The key-exchange group the array's TLS chose last; the next hello shares a key for it alone (tls-context.ts). */
  #group: string | undefined;
  /** Calls waiting for one of this array's own sockets (#crowded). */
  readonly #held: (() => void)[] = [];
  /**
   * The TLS context and undici's connector, built for the array's first socket and dropped with the pool when its
   * last socket closes (#dropIfIdle). The connector is rebuilt when a new ticket arrives: it offers the ticket it
   * was built with (undici's own cache, WeakRefs only, is off: #ticket is the cache), and both when the array
   * chooses another key-exchange group.
   */
  #context: HeldContext | undefined;
  #connector: buildConnector.connector | undefined;

  constructor(cfg: ResolvedArrayConfig, o: TransportOptions = {}) {
    this.#cfg = cfg;
    this.#budget = o.budget;
    this.#now = o.now ?? Date.now;
    // Tag errors raised while connecting, so classify() knows the request was never written.
    const open: buildConnector.connector = (opts, callback) => {
      this.#connectorNow()(opts, (...args) => {
        const [err, socket] = args;
        if (err) Object.defineProperty(err, CONNECT_PHASE, { value: true });
        else if (socket instanceof TLSSocket) this.#learn(socket);
        callback(...args);
      });
    };
    const budget = o.budget;
    // With a budget, a socket is opened only once it has a place, and gives the place back when it closes. Each
    // undici client gets its own connector, so the budget knows which client a socket serves (and whether it is
    // idle).
    const connectFor =
      (client: Client): buildConnector.connector =>
      (opts, callback) => {
        if (budget === undefined) return open(opts, callback);
        // undici opens sockets for the array's queue, not for one request: while an urgent call of this array is
        // in flight, its connects are urgent.
        const extra = this.#urgentInFlight > 0 ? "urgent" : this.#sockets.size > 0 || this.#connecting > 0;
        this.#connecting++;
        // The wait for a place is bounded by the read time-out (as long as a call holding a place may take): a
        // request queued behind the bound, or starved by arrays with no socket yet, fails as never sent instead
        // of waiting without end. It is the bot's bound, not the array: connection.ts leaves health alone.
        const gaveUp = (err: Error) => {
          this.#connecting--;
          Object.defineProperty(err, CONNECT_PHASE, { value: true });
          callback(err, null);
          this.#dropIfIdle();
        };
        void budget.acquire(extra, cfg.timeouts.readMs).then((release) => {
          open(opts, (err, socket) => {
            this.#connecting--;
            if (err || socket === null) {
              release();
              callback(err ?? new Error("no socket"), null);
              return;
            }
            this.#sockets.set(socket, client);
            socket.once("close", () => {
              this.#sockets.delete(socket);
              if (this.#shed.has(socket)) budget.shedClosed();
              release();
              this.#dropIfIdle();
            });
            callback(null, socket);
          });
        }, gaveUp);
      };
    const factory = (origin: URL, opts: object): Client => {
      let client: Client | undefined;
      const connect: buildConnector.connector = (co, cb) => {
        if (client) connectFor(client)(co, cb);
      };
      client = new Client(origin, { ...(opts as Client.Options), connect });
      return client;
    };
    const onDisconnect = o.onDisconnect ?? (() => {});
    const idleSocketMs = o.idleSocketMs ?? DEFAULT_IDLE_SOCKET_MS;
    this.#newPool = () => {
      const pool = new Pool(cfg.origin, {
        connections: cfg.connections + URGENT_SOCKETS,
        factory,
        keepAliveTimeout: idleSocketMs,
        // undici takes a server's `Keep-Alive: timeout=` hint over keepAliveTimeout, up to this: without it a
        // server hinting 65 s (the simulator, as Node's http server does) kept every idle socket 63 s, not
        // array_pool.idle_socket, and the bound sat full of idle sockets. A shorter hint still wins (less a
        // margin), so the bot does not reuse a socket the array is about to close.
        keepAliveMaxTimeout: idleSocketMs,
        headersTimeout: cfg.timeouts.readMs,
        bodyTimeout: cfg.timeouts.readMs,
      });
      pool.on("disconnect", (_origin, _targets, err) => onDisconnect(errCodeOf(err) ?? err.message));
      return pool;
    };
    this.#unregister = budget ? budget.register(this) : () => {};
  }

  #connectorNow(): buildConnector.connector {
    this.#context ??= holdContext(this.#cfg.ca, this.#group);
    this.#connector ??= buildConnector({
      timeout: this.#cfg.timeouts.connectMs,
      maxCachedSessions: 0,
      ...tlsOptions(this.#cfg, this.#context.ctx),
      ...(this.#ticket === undefined ? {} : { session: this.#ticket }),
    });
    return this.#connector;
  }

  /**
   * Counts the handshake, learns the group the array chose and keeps the tickets this socket receives. TLS 1.3
   * tickets arrive after the handshake, so after this (called on secureConnect) runs; undici's own listener,
   * added first, caches the same object.
   */
  #learn(socket: TLSSocket): void {
    this.#budget?.handshake(socket.isSessionReused());
    const group = keyShareGroup(socket);
    if (group !== undefined && group !== this.#group) {
      this.#group = group;
      this.#connector = undefined;
      // Sockets open on the old context keep it; the next connect offers this group's share.
      this.#context?.release();
      this.#context = this.#closed ? undefined : holdContext(this.#cfg.ca, group);
    }
    socket.on("session", (ticket: Buffer) => {
      this.#ticket = ownCopy(ticket);
      // The next connect offers this ticket.
      this.#connector = undefined;
    });
  }

  /** The undici pool, built on first use (and again after an idle array dropped it). */
  #poolNow(): Pool {
    this.#pool ??= this.#newPool();
    return this.#pool;
  }

  /**
   * An array with no socket left and nothing in flight drops its undici pool: its request queue alone is 16 KiB,
   * paid by every idle array of a fleet; the next request builds a new one. Under the budget only (the pool's
   * transports), where the sockets are known.
   */
  #dropIfIdle(): void {
    const pool = this.#pool;
    if (pool === undefined || this.#closed || this.#inFlight > 0) return;
    if (this.#sockets.size > 0 || this.#connecting > 0) return;
    this.#pool = undefined;
    void pool.close().catch(() => undefined);
    this.#connector = undefined;
    this.#context?.release();
    this.#context = undefined;
  }

  /**
   * Whether the array holds an undici pool and a TLS context now, a session ticket in memory of its own, and
   * the key-exchange group its next hello shares a key for (for tests and the benchmark).
   */
  holds(): { pool: boolean; tls: boolean; ticket: "none" | "own" | "shared"; group: string | undefined } {
    const t = this.#ticket;
    const ticket = t === undefined ? "none" : t.buffer.byteLength === t.length ? "own" : "shared";
    return { pool: this.#pool !== undefined, tls: this.#context !== undefined, ticket, group: this.#group };
  }

  /** Nothing in flight. */
  get idle(): boolean {
    return this.#inFlight === 0;
  }

  get lastUsed(): number {
    return this.#lastUsed;
  }

  /** A socket is idle when its client has no request running or queued. */
  #idle(client: Client): boolean {
    const st = client.stats;
    return st.running === 0 && st.pending === 0;
  }

  get idleSockets(): number {
    if (this.#sockets.size === 0) return 0;
    let n = 0;
    for (const [socket, client] of this.#sockets) if (!this.#shed.has(socket) && this.#idle(client)) n++;
    return n;
  }

  /**
   * Closes the sockets whose client has nothing running or queued. Destroyed, not ended: undici checks
   * `destroyed` before writing, so no request goes out on one (an ended socket would still take one and break
   * it); the next request to this array opens a new socket.
   */
  shed(): number {
    let n = 0;
    for (const [socket, client] of this.#sockets) {
      if (this.#shed.has(socket) || !this.#idle(client)) continue;
      this.#shed.add(socket);
      socket.destroy();
      n++;
    }
    return n;
  }

  /**
   * Connects wait for a place and every socket this array holds (or is opening) has a call on it. Another socket
   * would queue behind them, or take a place from an array with none and, idle after one call, be shed again: a
   * fan-out over 1,000 arrays through 256 places paid ~4.5 handshakes per array that way. The call waits for one
   * of the array's own sockets instead. A bound merely at its size (idle sockets holding places, nobody waiting)
   * does not hold calls back: under the 1,000-array load it is at its size nearly always, and holding an
   * approval's calls behind the array's other calls doubled approve p99 (874 → 1,626 ms).
   */
  #crowded(): boolean {
    // Calls that are not urgent use at most `connections` sockets: the pool's extra ones are for urgent calls.
    if (this.#inFlight - this.#urgentInFlight >= this.#cfg.connections) return true;
    if (this.#budget === undefined || !this.#budget.contended) return false;
    // A call handed to undici opens its connect a turn later: the calls in flight count even before a socket does.
    return this.#inFlight >= Math.max(1, this.#sockets.size + this.#connecting);
  }

  async request(req: WireRequest): Promise<WireResponse> {
    const urgent = req.urgent === true;
    // Woken when a call of this array ends (one is in flight whenever a call waits here). An urgent call is not
    // held: it may open a socket of its own, whose connect goes first.
    // A call woken and still crowded (the call that ended was urgent) waits at the front again, keeping its turn.
    for (let woken = false; !urgent && this.#crowded(); woken = true)
      await new Promise<void>((resolve) => (woken ? this.#held.unshift(resolve) : this.#held.push(resolve)));
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
    this.#inFlight++;
    if (urgent) this.#urgentInFlight++;
    try {
      const res = await this.#poolNow().request(options);
      if (res.statusCode < 300 && isFile(res.headers)) {
        const bytes = new Uint8Array(await res.body.arrayBuffer());
        return { status: res.statusCode, headers: res.headers, text: "", bytes };
      }
      const text = await res.body.text();
      // undici hands a keep-alive socket back to its pool only a full event-loop turn after an answer (to see a
      // server that closes it anyway). A call sent before then, such as the next request of the same poll, opened
      // a second socket, and so a second handshake, per array: twice the sockets against the bound.
      await new Promise((resolve) => setImmediate(resolve));
      return { status: res.statusCode, headers: res.headers, text };
    } catch (err) {
      const cfg = this.#cfg;
      throw classify(
        err,
        req.timeoutMs === undefined ? cfg : { timeouts: { ...cfg.timeouts, readMs: req.timeoutMs } },
      );
    } finally {
      this.#lastUsed = this.#now();
      this.#inFlight--;
      if (urgent) this.#urgentInFlight--;
      const next = this.#held.shift();
      if (next) next();
      // A socket may have just become idle: a call of this array waiting for it, or else connects waiting for a
      // place, can have it.
      else this.#budget?.idle(this);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#unregister();
    // Closed for good: a request after this is refused as by any closed undici pool.
    await this.#poolNow().close();
    this.#context?.release();
  }
}

export function headerValue(headers: WireResponse["headers"], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}
