/**
 * One array's request pipeline: down-state gate → version check against the endpoint table → session →
 * limiter → HTTPS, with safe retries and one re-login on 401/403. Everything above (client.ts, resources/)
 * speaks paths below the version; everything below (transport.ts) speaks bytes.
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { ResolvedArrayConfig } from "../config/arrays.js";
import { BotError, InternalError } from "../errors.js";
import type { Logger } from "../logger.js";
import { dialect } from "../rest-spec/dialect.js";
import type { HttpMethod } from "../rest-spec/endpoints.js";
import { formFiles, formOf } from "../rest-spec/form-data.js";
import { findOperation } from "../rest-spec/operations.js";
import { type CallObserver, callEvent, guardObserver } from "./call-events.js";
import { credentialOf } from "./credentials.js";
import { markedDown, outcomeUnknown, rejected, socketsBusy, unreachable, versionTooOld } from "./errors.js";
import { HealthTracker } from "./health.js";
import { ArrayLimiter } from "./limiter.js";
import { VersionState } from "./negotiate.js";
import { BackgroundProbe } from "./probe.js";
import { errorEntries } from "./response.js";
import { DEFAULT_RETRY, decideOnFailure, decideOnStatus, type RetryPolicy } from "./retry.js";
import { Session } from "./session.js";
import {
  headerValue,
  Transport,
  TransportFailure,
  type TransportOptions,
  type WireRequest,
  type WireResponse,
} from "./transport.js";
import type { ArrayHealth, Query } from "./types.js";
import { isUrgent } from "./urgency.js";
import { apiPath } from "./wire.js";

/** A probe that gets no answer within this says the array is not answering (capped by its read time-out). */
const PROBE_TIMEOUT_MS = 5_000;

export interface ConnectionDeps {
  logger: Logger;
  now: () => number;
  random: () => number;
  sleep: (ms: number) => Promise<void>;
  retry?: RetryPolicy;
  onCall?: CallObserver;
  /** Probe on a timer while marked down (see PoolDeps.probeInBackground). */
  probeInBackground?: boolean;
  /** The pool's socket bound and idle time (pool.ts). */
  transport?: Pick<TransportOptions, "budget" | "idleSocketMs" | "now">;
}

export class ArrayConnection {
  readonly name: string;
  readonly tags: readonly string[];
  readonly host: string;
  readonly #deps: ConnectionDeps;
  readonly #policy: RetryPolicy;
  readonly #log: Logger;
  readonly #transport: Transport;
  /**
   * Built by the first call and dropped by the idle sweep (endIfIdle): of a fleet of a thousand arrays, most are
   * idle at any time, and an idle array needs no queue, no spacing state and no bound closures.
   */
  #limiter: ArrayLimiter | undefined;
  readonly #rate: ResolvedArrayConfig["rate"];
  /** Set by close(): a limiter built after it refuses every call. */
  #stopped: Error | undefined;
  readonly #health: HealthTracker;
  readonly #session: Session;
  readonly #versions: VersionState;
  readonly #onCall: CallObserver | undefined;
  readonly #probe: BackgroundProbe;
  /** The read time-out of probes and version negotiation. */
  readonly #probeMs: number;

  constructor(cfg: ResolvedArrayConfig, deps: ConnectionDeps) {
    this.name = cfg.name;
    this.tags = cfg.tags;
    this.host = new URL(cfg.origin).hostname.replace(/^\[|\]$/g, "");
    this.#deps = deps;
    this.#policy = deps.retry ?? DEFAULT_RETRY;
    this.#log = deps.logger.child({ array: cfg.name });
    this.#onCall = deps.onCall && guardObserver(deps.onCall, this.#log);
    this.#transport = new Transport(cfg, {
      onDisconnect: (reason) => this.#log.debug({ reason }, "connection to array closed"),
      ...deps.transport,
    });
    this.#rate = cfg.rate;
    this.#health = new HealthTracker(cfg.name, cfg.downAfterFailures, deps.now, (event, state) => {
      if (event === "up") {
        this.#log.info("array reachable again");
        this.#versions.forget();
      } else {
        this.#log.warn(
          { reason: state?.reason, retryInMs: state?.intervalMs },
          `array marked down (${event})`,
        );
        if (state) this.#probe.schedule(state.retryAt - deps.now());
      }
    });
    this.#probeMs = Math.min(PROBE_TIMEOUT_MS, cfg.timeouts.readMs);
    this.#probe = new BackgroundProbe(
      deps.probeInBackground ?? false,
      () => this.#wire({ method: "GET", path: "/api/api_version", timeoutMs: this.#probeMs }, true, true),
      () => this.#health.snapshot().down,
      deps.now,
    );
    const unauthenticated = (req: WireRequest) => this.#exchange(req, false, false);
    const setting = cfg.tokenSetting ?? "api_token_env or api_token_file";
    const credential = credentialOf(cfg, deps.now);
    this.#session = new Session(cfg.name, credential, unauthenticated, this.#log, deps.now, (accepted) =>
      accepted ? this.#health.loginAccepted() : this.#health.loginRefused(setting),
    );
    // Negotiation is one short probe: a hung array answers "not answering" in seconds, not 3 × the read time-out
    // (a time-out opens the breaker, which ends the retries).
    const negotiate = (req: WireRequest) =>
      this.#exchange({ ...req, timeoutMs: this.#probeMs }, false, false);
    this.#versions = new VersionState(
      cfg.name,
      cfg.api ?? cfg.apiVersion,
      negotiate,
      this.#log,
      (outcome, ms) => this.#onCall?.(callEvent(this.name, "GET", "/api_version", ms, outcome)),
    );
    if (cfg.insecure) {
      this.#log.warn("TLS certificate verification is disabled for this array (insecure: true)");
    }
  }

  /** The negotiated version when known, without asking (the answer of a call just made was read in it). */
  get negotiated(): string | undefined {
    return this.#versions.current;
  }

  /** The negotiated version; asks the array on first use (single-flight). */
  version(): Promise<string> {
    return this.#versions.get().catch((err: unknown) => {
      throw this.#record(err);
    });
  }

  /** Whether the array answers and takes the token: the version, then a session (a login when there is none). */
  async check(): Promise<void> {
    await this.version();
    await this.#session.token().catch((err: unknown) => {
      throw this.#record(err);
    });
  }

  /** Logins made so far (for tests and the benchmark). */
  get logins(): number {
    return this.#session.logins;
  }

  /**
   * Sends a versioned call and returns its 2xx response; any other outcome is a coded error. Every call ends
   * in exactly one observer event (deps.onCall), with its final outcome.
   */
  async call(
    method: HttpMethod,
    path: string,
    opts: { query?: Query | ((version: string) => Query); body?: unknown } = {},
  ): Promise<WireResponse> {
    const started = performance.now();
    try {
      const req = this.#prepare(method, path, opts, this.#versions.current ?? (await this.version()));
      if (isUrgent()) req.urgent = true;
      for (let relogged = false; ; relogged = true) {
        const res = await this.#exchange(req, true, relogged);
        if (res.status >= 200 && res.status < 300) {
          this.#onCall?.(callEvent(this.name, method, path, performance.now() - started, res));
          return res;
        }
        const token = req.token;
        if ((res.status === 401 || res.status === 403) && !relogged && token !== undefined) {
          this.#log.info({ status: res.status }, "session refused; logging in again");
          await this.#session.refresh(token).catch((err: unknown) => {
            throw this.#record(err);
          });
          continue;
        }
        const fallback =
          res.status === 401 || res.status === 403
            ? `HTTP ${res.status} after a fresh login: the bot's account may lack permission for ${method} ${path}`
            : `HTTP ${res.status}`;
        throw this.#record(rejected(this.name, res.status, errorEntries(res.text), fallback));
      }
    } catch (err) {
      this.#onCall?.(callEvent(this.name, method, path, performance.now() - started, { err }));
      throw err;
    }
  }

  /**
   * The request for a versioned call, after checking the operation exists at this version: the path and the
   * query's names in the version's dialect (src/rest-spec/dialect.ts), so callers name an operation by its 1.x
   * or canonical path in either generation's words.
   */
  #prepare(
    method: HttpMethod,
    path: string,
    opts: { query?: Query | ((version: string) => Query); body?: unknown },
    version: string,
  ): WireRequest {
    const op = findOperation(method, path);
    if (!op) {
      throw new InternalError("ARRAY_ENDPOINT_UNKNOWN", `${method} ${path} is not a REST endpoint`, {
        details: { method, path },
      });
    }
    const d = dialect(version);
    const since = d.since(op);
    if (since === undefined) {
      const other = d.generation === 2 ? op.v1?.since : op.v2?.since;
      throw this.#record(
        versionTooOld(this.name, version, other ?? "?", `${method} ${path} (not in REST ${d.generation}.x)`),
      );
    }
    if (!this.#versions.speaks(version, since)) {
      throw this.#record(versionTooOld(this.name, version, since, `${method} ${path}`));
    }
    const query =
      opts.query === undefined
        ? undefined
        : typeof opts.query === "function"
          ? opts.query(version)
          : opts.query;
    const wire = d.request(op, query ?? {}, opts.body);
    const req: WireRequest = { method, path: apiPath(version, d.path(op)) };
    if (query !== undefined || Object.keys(wire.query).length > 0) req.query = wire.query as Query;
    const files = formFiles(op);
    if (files !== undefined && wire.body !== undefined) {
      // A file upload (a keytab): multipart form-data, the file's bytes decoded from the base64 the pipeline
      // filled in. rawBody and headers are never logged.
      const form = formOf(wire.body, files, `----array-chatops-${randomUUID()}`);
      if (!form)
        throw new InternalError(
          "SECRET_MALFORMED",
          `${method} ${path}: a file part is missing or not base64`,
        );
      req.rawBody = form.bytes;
      req.headers = { "content-type": form.contentType };
    } else if (wire.body !== undefined) req.body = wire.body;
    return req;
  }

  /**
   * One logical exchange with retries that are safe for its method; returns any HTTP response. A versioned
   * (`authed`) exchange goes through the limiter and carries the session token, read inside the limiter slot
   * so calls queued while the session is renewed go out with the new one instead of collecting a 403 each;
   * the token sent last is left in `req.token`.
   */
  async #exchange(req: WireRequest, authed: boolean, relogged: boolean): Promise<WireResponse> {
    const once = authed
      ? (): Promise<WireResponse> => {
          const token = this.#session.current;
          req.bearer = this.#session.bearer;
          if (token !== undefined) {
            req.token = token;
            return this.#wire(req, relogged);
          }
          return this.#session.token().then((fresh) => {
            req.token = fresh;
            return this.#wire(req, relogged);
          });
        }
      : () => this.#wire(req, true);
    for (let attempt = 0; ; attempt++) {
      let res: WireResponse;
      try {
        res = authed ? await this.#limiterNow().schedule(once, req.urgent === true) : await once();
      } catch (err) {
        if (!(err instanceof TransportFailure)) throw this.#record(err);
        const decision = decideOnFailure(req.method, err, attempt, this.#deps.random, this.#policy);
        if (decision.retry && !this.#health.isDown) {
          this.#log.warn({ method: req.method, path: req.path, reason: err.reason, attempt }, "retrying");
          await this.#deps.sleep(decision.delayMs);
          continue;
        }
        throw this.#record(this.#failureError(req.method, err));
      }
      if (res.status < 400) return res;
      const decision = decideOnStatus(
        req.method,
        res.status,
        headerValue(res.headers, "retry-after"),
        attempt,
        {
          random: this.#deps.random,
          now: this.#deps.now(),
          policy: this.#policy,
        },
      );
      if (decision.retry) {
        this.#log.warn({ method: req.method, path: req.path, status: res.status, attempt }, "retrying");
        await this.#deps.sleep(decision.delayMs);
        continue;
      }
      if (decision.retryAfterMs !== undefined) {
        const after = Math.ceil(decision.retryAfterMs / 1000);
        throw this.#record(
          rejected(
            this.name,
            res.status,
            [],
            `it is overloaded (HTTP ${res.status}); try again in ${after}s`,
          ),
        );
      }
      return res;
    }
  }

  /**
   * A single HTTPS request, gated by the down state and recorded in health. A refused session is dropped here,
   * before the limiter slot is given up, so queued calls wait for the new login instead of collecting a 403
   * each; not when `keepSession` (a refusal right after a fresh login is about permissions, not the session).
   */
  async #wire(req: WireRequest, keepSession: boolean, probe = false): Promise<WireResponse> {
    // With background probing, a user's call never serves as the probe of a down array (it would wait out the
    // read time-out); without it, the first call after the interval does.
    this.#health.admit(probe || !this.#deps.probeInBackground);
    const started = performance.now();
    let res: WireResponse;
    try {
      res = await this.#transport.request(req);
    } catch (err) {
      const failure =
        err instanceof TransportFailure ? err : new TransportFailure("socket", String(err), undefined, err);
      // A read time-out counts like a refusal: a stalled array must not cost every command its time-out.
      if (failure.kind === "timeout") this.#health.timedOut(failure.reason);
      else if (failure.notSent && !failure.local) this.#health.connectFailed(failure.reason);
      else this.#health.inconclusive();
      throw failure;
    }
    const ms = performance.now() - started;
    this.#health.reached(ms);
    if (this.#log.isLevelEnabled("debug")) {
      this.#log.debug(
        { method: req.method, path: req.path, status: res.status, ms: Math.round(ms) },
        "array call",
      );
    }
    if ((res.status === 401 || res.status === 403) && !keepSession && req.token !== undefined) {
      this.#session.invalidate(req.token);
    }
    return res;
  }

  #failureError(method: HttpMethod, failure: TransportFailure): BotError {
    if (failure.local) return socketsBusy(this.name, failure.reason);
    const down = this.#health.snapshot().down;
    if ((failure.notSent || method === "GET") && down) {
      return markedDown(this.name, down.since, failure.reason, Math.max(0, down.retryAt - this.#deps.now()));
    }
    if (failure.notSent || method === "GET") return unreachable(this.name, failure.reason, failure);
    return outcomeUnknown(this.name, failure.reason, failure);
  }

  #record(err: unknown): unknown {
    if (err instanceof BotError) this.#health.recordError(err.code, err.message);
    return err;
  }

  health(): ArrayHealth {
    const age = this.#session.ageMs();
    return {
      name: this.name,
      tags: this.tags,
      ...this.#health.snapshot(),
      ...(this.#versions.current === undefined ? {} : { version: this.#versions.current }),
      ...(age === undefined ? {} : { sessionAgeMs: age }),
      auth: this.#session.kind,
      ...(this.#limiter?.counts() ?? { inFlight: 0, queued: 0 }),
    };
  }

  #limiterNow(): ArrayLimiter {
    if (this.#limiter === undefined) {
      this.#limiter = new ArrayLimiter(this.name, this.#rate, this.#deps.now, this.#deps.sleep);
      if (this.#stopped) this.#limiter.stop(this.#stopped);
    }
    return this.#limiter;
  }

  /** What the array holds between its uses (for tests and the benchmark). */
  holds(): {
    limiter: boolean;
    session: boolean;
    pool: boolean;
    tls: boolean;
    ticket: "none" | "own" | "shared";
    group: string | undefined;
  } {
    return {
      limiter: this.#limiter !== undefined,
      session: this.#session.current !== undefined,
      ...this.#transport.holds(),
    };
  }

  /**
   * Ends the session and drops the limiter when nothing was sent for `idleMs` (its sockets close on their own
   * after the socket idle time, and the undici pool with them); the next call builds a limiter and logs in again.
   * True when a session was ended.
   */
  async endIfIdle(idleMs: number): Promise<boolean> {
    const t = this.#transport;
    if (!t.idle || this.#deps.now() - t.lastUsed < idleMs) return false;
    // Not while a call holds or waits for a slot (one waiting for a login has sent nothing yet), nor while the
    // spacing between call starts still runs: a new limiter would let the next call start early.
    if (this.#limiter?.idle === true) this.#limiter = undefined;
    if (this.#session.current === undefined) return false;
    await this.#session.end();
    return true;
  }

  async close(): Promise<void> {
    this.#probe.close();
    this.#stopped = new InternalError(
      "ARRAY_CLIENT_CLOSED",
      `the client for array ${this.name} is shutting down`,
    );
    this.#limiter?.stop(this.#stopped);
    await this.#session.logout();
    await this.#transport.close();
  }
}
