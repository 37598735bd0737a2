import type { DatabaseSync } from "node:sqlite";
import { InternalError } from "../errors.js";

/**
 * Schema migrations, applied in order, each in its own transaction and recorded in `schema_migrations`.
 * Append only: a released migration is never edited, a change is a new entry.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "kv documents",
    sql: `
      CREATE TABLE kv (
        ns         TEXT    NOT NULL,
        key        TEXT    NOT NULL,
        value      TEXT    NOT NULL,
        expires_at INTEGER,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (ns, key)
      ) WITHOUT ROWID;
      CREATE INDEX kv_expires ON kv (expires_at) WHERE expires_at IS NOT NULL;
    `,
  },
];

/**
 * Wraps `fn` in one transaction: committed when it returns, rolled back when it throws. `IMMEDIATE` takes the
 * write lock before the first read.
 */
export function transaction<A extends unknown[], R>(
  db: DatabaseSync,
  mode: "DEFERRED" | "IMMEDIATE",
  fn: (...args: A) => R,
): (...args: A) => R {
  return (...args: A): R => {
    db.exec(`BEGIN ${mode}`);
    try {
      const result = fn(...args);
      db.exec("COMMIT");
      return result;
    } catch (err) {
      if (db.isTransaction) db.exec("ROLLBACK");
      throw err;
    }
  };
}

/** Brings the database up to the newest migration; refuses a database written by a newer release. */
export function migrate(db: DatabaseSync, now: () => number, migrations = MIGRATIONS): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    applied_at INTEGER NOT NULL
  )`);
  const row = db.prepare("SELECT MAX(version) AS v FROM schema_migrations").get() as { v: number | null };
  const current = row.v ?? 0;
  const newest = migrations.reduce((m, x) => Math.max(m, x.version), 0);
  if (current > newest) {
    throw new InternalError(
      "STORE_SCHEMA_TOO_NEW",
      `the data file has schema version ${current}, this release knows up to ${newest}; run a newer release or restore a backup`,
    );
  }
  const record = db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)");
  const applied: number[] = [];
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (m.version <= current) continue;
    transaction(db, "IMMEDIATE", () => {
      db.exec(m.sql);
      record.run(m.version, m.name, now());
    })();
    applied.push(m.version);
  }
  return applied;
}
