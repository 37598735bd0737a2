/**
 * The array session: `POST /api/login` with the API token in the `api-token` header (never in the URL), the
 * session token taken from the `x-auth-token` response header and shared by every caller. Login is lazy and
 * single-flight (a burst against a cold array logs in once), and so is re-login: concurrent callers that saw
 * the same stale token share one new login. Once logged out it stays out: a call still under way when the bot
 * stopped (an alert poll, a retry after a 401) is refused rather than logging in again and leaving a session open.
 */
import type { Secret } from "../config/arrays.js";
import { InternalError } from "../errors.js";
import type { Logger } from "../logger.js";
import { authFailed, describeErrors } from "./errors.js";
import { errorEntries } from "./response.js";
import { headerValue, type WireRequest, type WireResponse } from "./transport.js";

export type Send = (req: WireRequest) => Promise<WireResponse>;

export class Session {
  #token: string | undefined;
  #obtainedAt: number | undefined;
  #pending: Promise<string> | undefined;
  #logins = 0;
  #closed = false;

  constructor(
    private readonly array: string,
    private readonly apiToken: Secret,
    private readonly send: Send,
    private readonly log: Logger,
    private readonly now: () => number,
    /** Hears each login's verdict on the token: accepted, or refused by the array. */
    private readonly onLogin: (accepted: boolean) => void = () => {},
  ) {}

  /** The current session token if there is one (the hot path reads it without a promise). */
  get current(): string | undefined {
    return this.#token;
  }

  /** The current session token, logging in first if there is none. */
  token(): Promise<string> {
    if (this.#token !== undefined) return Promise.resolve(this.#token);
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
    const res = await this.send({
      method: "POST",
      path: "/api/login",
      headers: { "api-token": this.apiToken.reveal() },
    });
    const token = headerValue(res.headers, "x-auth-token");
    if (res.status !== 200 || !token) {
      const entries = errorEntries(res.text);
      this.log.warn({ status: res.status }, "array login refused");
      this.onLogin(false);
      throw authFailed(this.array, res.status, entries.length > 0 ? describeErrors(entries) : undefined);
    }
    this.#token = token;
    this.#obtainedAt = this.now();
    this.onLogin(true);
    this.log.info("logged in to array");
    return token;
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
    try {
      const res = await this.send({
        method: "POST",
        path: "/api/logout",
        token,
      });
      this.log.info({ status: res.status }, "logged out of array");
    } catch (err) {
      this.log.warn({ reason: err instanceof Error ? err.message : String(err) }, "array logout failed");
    }
  }
}
