/**
 * A full data volume under the SQLite store (issue 44). SQLite answers a write it cannot make room for with
 * SQLITE_FULL ("database or disk is full") and rolls that transaction back, so the data file stays whole; what
 * the bot must add is to say so: the failing write becomes a clear, user-facing refusal, /readyz reports the
 * full volume, and changes are refused before anything is sent to an array (a change whose approval or history
 * cannot be recorded must not run). Space coming back is noticed by the next write that succeeds, or by the
 * small probe write /readyz makes while the volume is full.
 */
import { statfsSync } from "node:fs";
import { UserFacingError } from "../errors.js";

/**
 * Below this much free space on the data volume the store counts as full before a write fails: a pending request,
 * its history and the WAL's growth take tens of KiB, and a write that fails half way helps nobody.
 */
export const MIN_FREE_BYTES = 64 * 1024;

/** Free bytes for an unprivileged writer on the volume holding `dir`; undefined when the system cannot say. */
export function freeBytes(dir: string): number | undefined {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return undefined;
  }
}

/** SQLite's primary result code for a full database or disk. */
const SQLITE_FULL = 13;

export function isDiskFull(err: unknown): boolean {
  if (!err || typeof err !== "object") return false;
  const e = err as { errcode?: unknown; code?: unknown; message?: unknown; cause?: unknown };
  if (typeof e.errcode === "number" && (e.errcode & 0xff) === SQLITE_FULL) return true;
  if (e.code === "ENOSPC") return true;
  if (
    typeof e.message === "string" &&
    /database or disk is full|ENOSPC|no space left on device/i.test(e.message)
  )
    return true;
  return e.cause !== undefined && e.cause !== err && isDiskFull(e.cause);
}

export function storeFullError(cause?: unknown): UserFacingError {
  return new UserFacingError(
    "STORE_FULL",
    "Refused: the bot's data volume is full, so it cannot record this change. Nothing was sent to the array; read-only commands still work. Try again once space is freed.",
    cause === undefined ? {} : { cause },
  );
}

/** The store's view of its volume: full since when and why, or not. */
export class VolumeState {
  #full: { since: number; detail: string } | undefined;

  constructor(
    private readonly path: string,
    private readonly now: () => number,
  ) {}

  get full(): boolean {
    return this.#full !== undefined;
  }

  /** A write failed for lack of space (or the volume shows too little); returns whether this is news. */
  markFull(err: unknown): boolean {
    const detail = err instanceof Error ? err.message : String(err);
    if (this.#full) {
      this.#full.detail = detail;
      return false;
    }
    this.#full = { since: this.now(), detail };
    return true;
  }

  /** A write succeeded; returns whether this is news (the volume was full until now). */
  markRoom(): boolean {
    const was = this.#full !== undefined;
    this.#full = undefined;
    return was;
  }

  health(): { up: boolean; detail: string } {
    if (!this.#full) return { up: true, detail: "embedded" };
    return {
      up: false,
      detail: `data volume full: writes to ${this.path} fail (${this.#full.detail}) since ${new Date(this.#full.since).toISOString()}`,
    };
  }
}
