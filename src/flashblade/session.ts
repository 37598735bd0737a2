/**
 * The array session: a login by the array's credential (credentials.ts: the API token's `POST /api/login`, the
 * token taken from the `x-auth-token` response header; or an API client's token exchange, its access token sent
 * as Bearer and renewed before it expires), the token shared by every caller. Login is lazy and
 * single-flight (a burst against a cold array logs in once), and so is re-login: concurrent callers that saw
 * the same stale token share one new login. Once logged out it stays out: a call still under way when the bot
 * stopped (an alert poll, a retry after a 401) is refused rather than logging in again and leaving a session open.
 */
import { BotError, InternalError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { Credential, Send } from "./credentials.js";

export type { Send } from "./credentials.js";

/**
 * A token that says how long it lives is renewed this long before it ends (a tenth of its life, at most a minute):
 * calls going out just then carry the new one instead of collecting a 401 each.
 */
function renewAhead(ttlMs: number): number {
  return Math.min(ttlMs / 10, 60_000);
}

export class Session {
  #token: string | undefined;
  #obtainedAt: number | undefined;
  /** When the token is to be replaced (a token with a known lifetime); undefined for a session token. */
  #renewAt: number | undefined;
  #pending: Promise<string> | undefined;
  #logins = 0;
  #closed = false;

  constructor(
    private readonly array: string,
    private readonly credential: Credential,
    private readonly send: Send,
    private readonly log: Logger,
    private readonly now: () => number,
    /** Hears each login's verdict on the token: accepted, or refused by the array. */
    private readonly onLogin: (accepted: boolean) => void = () => {},
  ) {}

  /** Which credential logs in ("api_token" or "api_client"), for health. */
  get kind(): Credential["kind"] {
    return this.credential.kind;
  }

  /** The token travels as `Authorization: Bearer`. */
  get bearer(): boolean {
    return this.credential.bearer;
  }

  /** The current token if there is one and it is not due for renewal (the hot path reads it without a promise). */
  get current(): string | undefined {
    if (this.#renewAt !== undefined && this.now() >= this.#renewAt) return undefined;
    return this.#token;
  }

  /** The current token, logging in first if there is none or it is due for renewal. */
  token(): Promise<string> {
    const current = this.current;
    if (current !== undefined) return Promise.resolve(current);
    if (this.#closed)
      return Promise.reject(
        new InternalError("ARRAY_CLIENT_CLOSED", `the client for array ${this.array} is shutting down`),
      );
    if (!this.#pending) {
      this.#pending = this.#login().finally(() => {
        this.#pending = undefined;
      });
    }
    return this.#pending;
  }

  /**
   * Called after a 401/403 with the token that was refused. If someone already replaced it, use theirs;
   * otherwise drop it and log in again (shared by every caller holding the same stale token).
   */
  refresh(stale: string): Promise<string> {
    this.invalidate(stale);
    return this.token();
  }

  /** Forgets `stale` if it is still the current token, so the next caller logs in instead of reusing it. */
  invalidate(stale: string): void {
    if (this.#token === stale) {
      this.#token = undefined;
      this.#obtainedAt = undefined;
      this.#renewAt = undefined;
    }
  }

  ageMs(): number | undefined {
    return this.#obtainedAt === undefined ? undefined : this.now() - this.#obtainedAt;
  }

  /** How many logins this session has made (for tests and the benchmark). */
  get logins(): number {
    return this.#logins;
  }

  async #login(): Promise<string> {
    this.#logins++;
    const started = this.now();
    let obtained: Awaited<ReturnType<Credential["obtain"]>>;
    try {
      obtained = await this.credential.obtain(this.send);
    } catch (err) {
      if (err instanceof BotError && err.code === "ARRAY_AUTH_FAILED") {
        this.log.warn({ auth: this.credential.kind, status: err.details["status"] }, "array login refused");
        this.onLogin(false);
      }
      throw err;
    }
    this.#token = obtained.token;
    this.#obtainedAt = this.now();
    this.#renewAt =
      obtained.ttlMs === undefined ? undefined : started + obtained.ttlMs - renewAhead(obtained.ttlMs);
    this.onLogin(true);
    this.log.info({ auth: this.credential.kind }, "logged in to array");
    return obtained.token;
  }

  /** Ends the session on the array for good (the bot stops). Failures are logged, not thrown: we are shutting down anyway. */
  async logout(): Promise<void> {
    this.#closed = true;
    const pending = this.#pending;
    if (pending) await pending.catch(() => undefined);
    await this.end();
  }

  /**
   * Ends the current session on the array, if any; the next call logs in again (an idle array holds no session).
   * Not while a login is under way: that session is about to be used.
   */
  async end(): Promise<void> {
    const token = this.#token;
    if (token === undefined || this.#pending) return;
    this.#token = undefined;
    this.#obtainedAt = undefined;
    this.#renewAt = undefined;
    // An access token has nothing to end on the array: it runs out by itself.
    if (this.credential.end === undefined) return;
    try {
      const status = await this.credential.end(this.send, token);
      this.log.info({ status }, "logged out of array");
    } catch (err) {
      this.log.warn({ reason: err instanceof Error ? err.message : String(err) }, "array logout failed");
    }
  }
}
