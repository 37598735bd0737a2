import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { BotError, InternalError, UserFacingError } from "../errors.js";
import { prepareDataDir } from "./data-dir-check.js";
import { lockDataFile } from "./data-file.js";
import { freeBytes, isDiskFull, MIN_FREE_BYTES, storeFullError, VolumeState } from "./disk-full.js";
import { prefixUpperBound } from "./keys.js";
import { fenced, guardHolds, serialise } from "./memory.js";
import { migrate, transaction } from "./migrations.js";
import {
  DEFAULT_DB_FILE,
  type ListOptions,
  type Store,
  type StoreEntry,
  type StoreOp,
  type WriteGuard,
} from "./types.js";

export interface SqliteStoreOptions {
  dataDir: string;
  fileName?: string;
  /**
   * WAL mode is always on. With WAL, `normal` only syncs at checkpoints: a killed process never loses or corrupts
   * a committed transaction, but a power cut or kernel crash can drop the last few. `full` (default) syncs the
   * WAL on every commit, so a commit that returned survives power loss too. Our commits are a few per poll cycle
   * and a few per Slack post, so the extra fsync costs nothing measurable and we keep the stronger promise.
   */
  synchronous?: "full" | "normal";
  now?: () => number;
  /** Hears the volume filling up (up = false) and having room again (up = true), for logs and metrics. */
  events?: { state?(up: boolean, detail: string): void; error?(op: string, err: unknown): void };
}

interface KvRow {
  key: string;
  value: string;
  expires_at: number | null;
}

export interface SqliteStore extends Store {
  /** Up unless the data volume is full (then a small probe write checks whether space came back). */
  health(): { up: boolean; detail: string };
  /** The connection's effective settings, for the startup log line and tests. */
  settings(): {
    path: string;
    journalMode: string;
    synchronous: "full" | "normal" | "other";
    schemaVersion: number;
  };
}

/**
 * Opens (creating and migrating as needed) the SQLite data file, through Node's built-in SQLite (nothing to
 * compile at install), and holds it for this process alone until close() or the process's death (see
 * ./data-file.ts). Open failures are reported with the path.
 */
export function openSqliteStore(opts: SqliteStoreOptions): SqliteStore {
  const now = opts.now ?? Date.now;
  const path = join(opts.dataDir, opts.fileName ?? DEFAULT_DB_FILE);
  let db: DatabaseSync;
  let opened: DatabaseSync | undefined;
  try {
    prepareDataDir(opts.dataDir);
    db = opened = new DatabaseSync(path);
    lockDataFile(db, path, opts.dataDir);
    db.exec(`PRAGMA synchronous = ${opts.synchronous === "normal" ? "NORMAL" : "FULL"}`);
    migrate(db, now);
  } catch (err) {
    if (opened?.isOpen) opened.close();
    if (err instanceof BotError) throw err;
    throw new UserFacingError("STORE_OPEN_FAILED", `Cannot open the data file ${path}: ${describe(err)}`, {
      cause: err,
      suggestions: [
        "Check that store.data_dir exists or can be created, and that the bot may read and write it.",
        "If the file is damaged, move it aside; the bot starts with empty state and re-learns open alerts.",
      ],
    });
  }

  const getStmt = db.prepare(
    "SELECT key, value, expires_at FROM kv WHERE ns = ? AND key = ? AND (expires_at IS NULL OR expires_at > ?)",
  );
  const rangeStmt = db.prepare(
    `SELECT key, value, expires_at FROM kv
     WHERE ns = ? AND key >= ? AND key < ? AND (expires_at IS NULL OR expires_at > ?)
     ORDER BY key LIMIT ?`,
  );
  const putStmt = db.prepare(
    `INSERT INTO kv (ns, key, value, expires_at, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (ns, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at,
       updated_at = excluded.updated_at`,
  );
  const delStmt = db.prepare("DELETE FROM kv WHERE ns = ? AND key = ?");
  const sweepStmt = db.prepare("DELETE FROM kv WHERE expires_at IS NOT NULL AND expires_at <= ?");

  const checkGuard = (g: WriteGuard | undefined, at: number) => {
    if (!g) return;
    const row = getStmt.get("leases", g.lease, at) as KvRow | undefined;
    if (!guardHolds(row?.value, g, at)) throw fenced(g);
  };
  const applyBatch = transaction(
    db,
    "DEFERRED",
    (ops: readonly { op: StoreOp; json: string }[], at: number, guard: WriteGuard | undefined) => {
      checkGuard(guard, at);
      for (const { op, json } of ops) {
        if (op.op === "delete") delStmt.run(op.ns, op.key);
        else putStmt.run(op.ns, op.key, json, op.expiresAt ?? null, at);
      }
    },
  );
  // IMMEDIATE takes the write lock before the read (kept from when a second process could share the file).
  const takeTx = transaction(db, "IMMEDIATE", (ns: string, key: string, at: number): KvRow | undefined => {
    const row = getStmt.get(ns, key, at) as KvRow | undefined;
    delStmt.run(ns, key);
    return row;
  });

  const updateTx = transaction(
    db,
    "IMMEDIATE",
    (
      ns: string,
      key: string,
      fn: (cur: unknown) => unknown,
      expiresAt: number | undefined,
      at: number,
      guard: WriteGuard | undefined,
    ) => {
      checkGuard(guard, at);
      const row = getStmt.get(ns, key, at) as KvRow | undefined;
      const next = fn(row ? JSON.parse(row.value) : undefined);
      if (next === undefined) {
        delStmt.run(ns, key);
        return undefined;
      }
      const json = serialise(next);
      putStmt.run(ns, key, json, expiresAt ?? row?.expires_at ?? null, at);
      return JSON.parse(json) as unknown;
    },
  );

  let closed = false;
  const volume = new VolumeState(path, now);
  const WRITES = new Set(["write", "update", "take", "sweep"]);
  const guard = <T>(what: string, fn: () => T): T => {
    if (closed) throw new InternalError("STORE_CLOSED", "the store was used after close()");
    try {
      const out = fn();
      if (WRITES.has(what) && volume.markRoom()) opts.events?.state?.(true, "embedded");
      return out;
    } catch (err) {
      if (err instanceof BotError) throw err;
      if (isDiskFull(err)) {
        opts.events?.error?.(what, err);
        if (volume.markFull(err)) opts.events?.state?.(false, volume.health().detail);
        throw storeFullError(err);
      }
      throw new InternalError("STORE_IO", `store ${what} failed: ${describe(err)}`, { cause: err });
    }
  };
  // Whether a write fits again: one small row, in its own transaction, rolled back by SQLite if it does not.
  const probeStmt = db.prepare(
    `INSERT INTO kv (ns, key, value, expires_at, updated_at) VALUES ('health', 'probe', '{}', NULL, ?)
     ON CONFLICT (ns, key) DO UPDATE SET updated_at = excluded.updated_at`,
  );
  const probeTx = transaction(db, "IMMEDIATE", (at: number) => probeStmt.run(at));
  const toEntry = <T>(row: KvRow): StoreEntry<T> => {
    const e: StoreEntry<T> = { key: row.key, value: JSON.parse(row.value) as T };
    if (row.expires_at !== null) e.expiresAt = row.expires_at;
    return e;
  };

  return {
    async get<T>(ns: string, key: string): Promise<T | undefined> {
      return guard("read", () => {
        const row = getStmt.get(ns, key, now()) as KvRow | undefined;
        return row ? (JSON.parse(row.value) as T) : undefined;
      });
    },
    async getMany<T>(ns: string, keys: readonly string[]): Promise<Map<string, T>> {
      return guard("read", () => {
        const out = new Map<string, T>();
        const at = now();
        for (const key of keys) {
          const row = getStmt.get(ns, key, at) as KvRow | undefined;
          if (row) out.set(key, JSON.parse(row.value) as T);
        }
        return out;
      });
    },
    async list<T>(ns: string, o: ListOptions = {}): Promise<StoreEntry<T>[]> {
      return guard("list", () => {
        const prefix = o.prefix ?? "";
        const rows = rangeStmt.all(
          ns,
          prefix,
          prefixUpperBound(prefix),
          now(),
          o.limit ?? -1,
        ) as unknown as KvRow[];
        return rows.map((r) => toEntry<T>(r));
      });
    },
    async write(ops: readonly StoreOp[], wo: { guard?: WriteGuard } = {}): Promise<void> {
      if (ops.length === 0) return;
      guard("write", () => {
        const prepared = ops.map((op) => ({ op, json: op.op === "put" ? serialise(op.value) : "" }));
        applyBatch(prepared, now(), wo.guard);
      });
    },
    async update<T>(
      ns: string,
      key: string,
      fn: (current: T | undefined) => T | undefined,
      o: { expiresAt?: number; guard?: WriteGuard } = {},
    ): Promise<T | undefined> {
      return guard(
        "update",
        () => updateTx(ns, key, fn as (cur: unknown) => unknown, o.expiresAt, now(), o.guard) as T,
      );
    },
    async take<T>(ns: string, key: string): Promise<T | undefined> {
      return guard("take", () => {
        const row = takeTx(ns, key, now());
        return row ? (JSON.parse(row.value) as T) : undefined;
      });
    },
    async sweepExpired(): Promise<number> {
      return guard("sweep", () => Number(sweepStmt.run(now()).changes));
    },
    health() {
      if (closed) return volume.health();
      // The volume's free space first: a write may still fit in the WAL's slack while the next one will not.
      const free = freeBytes(opts.dataDir);
      if (free !== undefined && free < MIN_FREE_BYTES) {
        if (volume.markFull(`${free} bytes free on the data volume`))
          opts.events?.state?.(false, volume.health().detail);
      } else if (volume.full) {
        try {
          guard("write", () => probeTx(now()));
        } catch {
          // Still full: the state says so.
        }
      }
      return volume.health();
    },
    settings() {
      return guard("settings", () => {
        const sync = pragma(db, "synchronous");
        const version = db.prepare("SELECT MAX(version) AS v FROM schema_migrations").get() as { v: number };
        return {
          path,
          journalMode: String(pragma(db, "journal_mode")),
          synchronous: sync === 2 ? ("full" as const) : sync === 1 ? ("normal" as const) : ("other" as const),
          schemaVersion: version.v,
        };
      });
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}

/** A pragma's current value (the one column of its one row). */
function pragma(db: DatabaseSync, name: string): unknown {
  const row = db.prepare(`PRAGMA ${name}`).get();
  return row ? Object.values(row)[0] : undefined;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
