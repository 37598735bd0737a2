import { randomUUID } from "node:crypto";

export interface Session {
  readonly token: string;
  readonly username: string;
  lastUsed: number;
}

/**
 * Array sessions as real arrays keep them: a UUID handed out at login, ended by logout or by `idleMs` without
 * a call. Expiry is checked lazily against the injected clock, so tests move time instead of waiting.
 */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly clock: () => number,
    private readonly idleMs: number,
  ) {}

  open(username: string): string {
    const token = randomUUID();
    this.sessions.set(token, { token, username, lastUsed: this.clock() });
    return token;
  }

  /** The session's user, refreshing its idle time; undefined for an unknown, ended or idle-expired token. */
  touch(token: string | undefined): string | undefined {
    if (token === undefined) return undefined;
    const session = this.sessions.get(token);
    if (session === undefined) return undefined;
    const now = this.clock();
    if (now - session.lastUsed > this.idleMs) {
      this.sessions.delete(token);
      return undefined;
    }
    session.lastUsed = now;
    return session.username;
  }

  /** Ends a session; unknown tokens are ignored, as real arrays answer a stray logout without complaint. */
  end(token: string | undefined): boolean {
    return token === undefined ? false : this.sessions.delete(token);
  }

  invalidateAll(): number {
    const n = this.sessions.size;
    this.sessions.clear();
    return n;
  }

  /** Sessions that would still be accepted now. */
  activeCount(): number {
    const now = this.clock();
    let n = 0;
    for (const s of this.sessions.values()) if (now - s.lastUsed <= this.idleMs) n++;
    return n;
  }
}
