/**
 * The bot's durable state, behind one small interface: namespaced JSON documents with atomic batches. The
 * SQLite store is the embedded default, the in-memory one serves tests and throwaway runs, and the Redis store
 * shares state between replicas (src/store/redis.ts).
 *
 * Domain code (alert cards, cursors, snoozes, pending approvals) builds typed repositories on top; nothing outside
 * src/store knows about tables or files.
 */
import type { RedisStoreOptions } from "./redis.js";

/** One stored document. */
export interface StoreEntry<T> {
  key: string;
  value: T;
  /** Milliseconds since the epoch after which the entry no longer exists; undefined = never. */
  expiresAt?: number;
}

export type StoreOp =
  | { op: "put"; ns: string; key: string; value: unknown; expiresAt?: number }
  | { op: "delete"; ns: string; key: string };

export interface ListOptions {
  /** Only keys that start with this string. */
  prefix?: string;
  limit?: number;
}

/**
 * Makes a write conditional on a lease (src/store/lease.ts): it is applied only while `owner` holds the lease
 * `lease` with this `fence`, in the same atomic step, else it throws STORE_FENCED and nothing is written. This is
 * what keeps a paused old holder from writing after a successor took over.
 */
export interface WriteGuard {
  lease: string;
  owner: string;
  fence: number;
}

export interface Store {
  /** The value stored under `key`, or undefined when absent or expired. */
  get<T>(ns: string, key: string): Promise<T | undefined>;
  /** Several keys at once; absent and expired keys are missing from the map. */
  getMany<T>(ns: string, keys: readonly string[]): Promise<Map<string, T>>;
  /** Entries of a namespace in key order, expired ones left out. */
  list<T>(ns: string, opts?: ListOptions): Promise<StoreEntry<T>[]>;
  /** Applies every op or none (one transaction). Values must be JSON-serialisable. */
  write(ops: readonly StoreOp[], opts?: { guard?: WriteGuard }): Promise<void>;
  /**
   * Atomic read-modify-write of one entry: `fn` gets the current value (undefined when absent or expired) and
   * returns the new one, or undefined to delete it. `fn` must be synchronous and free of side effects; the
   * result is what was stored. `opts.expiresAt` sets a new expiry; without it the entry keeps the one it had.
   * This is the compare-and-set that single-use claims are built on.
   */
  update<T>(
    ns: string,
    key: string,
    fn: (current: T | undefined) => T | undefined,
    opts?: { expiresAt?: number; guard?: WriteGuard },
  ): Promise<T | undefined>;
  /** Reads and deletes in one step, so two callers can never both consume the same entry (single-use tokens). */
  take<T>(ns: string, key: string): Promise<T | undefined>;
  /** Deletes expired entries; returns how many went. Reads already ignore them, so this only reclaims space. */
  sweepExpired(): Promise<number>;
  close(): Promise<void>;
}

/** How the store is opened; the `store` config section parses into this. */
export type StoreOptions =
  | { kind: "memory" }
  | {
      kind: "sqlite";
      /** Directory that holds the database file; created (mode 0700) when missing. */
      dataDir: string;
      /** File name inside dataDir. */
      fileName?: string;
      /** See sqlite.ts for why FULL is the default. */
      synchronous?: "full" | "normal";
    }
  | ({ kind: "redis" } & Omit<RedisStoreOptions, "now" | "events">);

export const DEFAULT_DB_FILE = "array-chatops.db";
