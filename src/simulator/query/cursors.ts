/**
 * Server-side cursors behind continuation tokens. The first page snapshots the keys of every remaining matching
 * item, so later pages cost O(limit) and return each item at most once however the collection changes. Cursors
 * are bounded (least recently used evicted first) and expire when idle.
 */
import { randomBytes } from "node:crypto";
import { badRequest } from "../types.js";
import type { Predicate } from "./filter-eval.js";

export interface Cursor {
  /** The listing the cursor belongs to (request path), so a token cannot be replayed on another collection. */
  readonly scope: string;
  /** Keys (id, else name; undefined for items with neither) of the matching items not returned by the first page. */
  readonly keys: readonly unknown[];
  /** Where each of those items stood in the collection at the first page. */
  readonly positions: readonly number[];
  /** How far items have moved since (insertions or deletions before them), learned as pages are served. */
  readonly shift: { value: number };
  /** Re-applied to each item as it is returned, so an item changed to no longer match is skipped. */
  readonly filter: Predicate | undefined;
  readonly limit: number;
  readonly totalItemCount: number;
}

export interface CursorStoreOptions {
  /** Live cursors kept at most (default 100); the least recently used is evicted. */
  maxCursors?: number;
  /** A cursor unused for this long is forgotten (default 10 minutes). */
  idleMs?: number;
  /** Milliseconds since the epoch; injected so tests control expiry. */
  clock?: () => number;
}

export interface CursorStore {
  /** Stores a cursor and returns the token for its first unreturned key. */
  open(cursor: Cursor): string;
  /** Resolves a token to its cursor and position; an unknown, expired, mangled or foreign token is a 400. */
  resume(token: string, scope: string): { cursor: Cursor; position: number; id: string };
  /** Token for a later position of the same cursor. */
  tokenAt(id: string, position: number): string;
  close(id: string): void;
  readonly size: number;
}

const TOKEN_BODY = /^([A-Za-z0-9_-]{16}):(\d{1,15})$/;

export function createCursorStore(opts: CursorStoreOptions = {}): CursorStore {
  const maxCursors = opts.maxCursors ?? 100;
  const idleMs = opts.idleMs ?? 10 * 60_000;
  const clock = opts.clock ?? Date.now;
  // Map iteration order is insertion order; re-inserting on use keeps it least-recently-used first.
  const live = new Map<string, { cursor: Cursor; lastUsed: number }>();

  const encode = (id: string, position: number) => Buffer.from(`${id}:${position}`).toString("base64url");
  const invalid = () =>
    badRequest(
      "The continuation token is unknown or has expired. Start the listing again without a token.",
      "token",
    );

  function sweep(now: number): void {
    for (const [id, entry] of live) {
      if (now - entry.lastUsed <= idleMs) break;
      live.delete(id);
    }
  }

  return {
    open(cursor) {
      const now = clock();
      sweep(now);
      const id = randomBytes(12).toString("base64url");
      live.set(id, { cursor, lastUsed: now });
      while (live.size > maxCursors) {
        const oldest = live.keys().next();
        if (oldest.done) break;
        live.delete(oldest.value);
      }
      return encode(id, 0);
    },
    resume(token, scope) {
      const now = clock();
      sweep(now);
      const match = TOKEN_BODY.exec(Buffer.from(token, "base64url").toString("utf8"));
      const id = match?.[1];
      const entry = id === undefined ? undefined : live.get(id);
      const position = Number(match?.[2]);
      if (id === undefined || entry === undefined || entry.cursor.scope !== scope) throw invalid();
      // Base64 decoding skips stray characters, so only the canonical spelling of a token is accepted.
      if (!(position <= entry.cursor.keys.length) || encode(id, position) !== token) throw invalid();
      live.delete(id);
      live.set(id, { cursor: entry.cursor, lastUsed: now });
      return { cursor: entry.cursor, position, id };
    },
    tokenAt: encode,
    close(id) {
      live.delete(id);
    },
    get size() {
      return live.size;
    },
  };
}
