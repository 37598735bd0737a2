import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { isUserFacing } from "../../src/errors.js";
import { openStore } from "../../src/store/index.js";
import { MIGRATIONS } from "../../src/store/migrations.js";
import { openSqliteStore } from "../../src/store/sqlite.js";
import { DEFAULT_DB_FILE } from "../../src/store/types.js";

const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), "sqlite-store-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("SQLite store", () => {
  it("keeps data across close and reopen", async () => {
    const dir = tempDir();
    const a = openStore({ kind: "sqlite", dataDir: join(dir, "nested", "data") });
    await a.write([{ op: "put", ns: "cursor", key: "fb1", value: { maxUpdated: 42 } }]);
    await a.close();
    const b = openStore({ kind: "sqlite", dataDir: join(dir, "nested", "data") });
    expect(await b.get("cursor", "fb1")).toEqual({ maxUpdated: 42 });
    await b.close();
  });

  it("runs in WAL mode with the configured synchronous level and records migrations", async () => {
    const dir = tempDir();
    const s = openSqliteStore({ dataDir: dir, now: () => 1234 });
    expect(s.settings()).toMatchObject({ journalMode: "wal", synchronous: "full", schemaVersion: 1 });
    await s.close();
    const normal = openSqliteStore({ dataDir: dir, synchronous: "normal" });
    expect(normal.settings().synchronous).toBe("normal");
    await normal.close();
    const db = new DatabaseSync(join(dir, DEFAULT_DB_FILE), { readOnly: true });
    expect(db.prepare("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
    const rows = db.prepare("SELECT version, applied_at FROM schema_migrations ORDER BY version").all();
    expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, applied_at: 1234 })));
    db.close();
  });

  it("does not re-apply migrations on reopen", async () => {
    const dir = tempDir();
    await openSqliteStore({ dataDir: dir, now: () => 1 }).close();
    await openSqliteStore({ dataDir: dir, now: () => 2 }).close();
    const db = new DatabaseSync(join(dir, DEFAULT_DB_FILE), { readOnly: true });
    const applied = db.prepare("SELECT applied_at FROM schema_migrations").all() as { applied_at: number }[];
    expect(applied.every((r) => r.applied_at === 1)).toBe(true);
    db.close();
  });

  it("refuses a data file written by a newer release", async () => {
    const dir = tempDir();
    await openSqliteStore({ dataDir: dir }).close();
    const db = new DatabaseSync(join(dir, DEFAULT_DB_FILE));
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', 0)").run();
    db.close();
    expect(() => openSqliteStore({ dataDir: dir })).toThrow(
      expect.objectContaining({ code: "STORE_SCHEMA_TOO_NEW" }),
    );
  });

  it("explains an unusable data directory instead of throwing a raw driver error", () => {
    const dir = tempDir();
    const file = join(dir, "not-a-dir");
    writeFileSync(file, "x");
    let caught: unknown;
    try {
      openSqliteStore({ dataDir: file });
    } catch (err) {
      caught = err;
    }
    expect(isUserFacing(caught)).toBe(true);
    expect(caught).toMatchObject({ code: "STORE_DATA_DIR_UNUSABLE" });
    expect(String((caught as Error).message)).toContain(file);
    expect(String((caught as Error).message)).toContain("store.data_dir");
    expect(String((caught as Error).message)).toContain("ENOTDIR");
  });

  it("explains a damaged data file", () => {
    const dir = tempDir();
    writeFileSync(join(dir, DEFAULT_DB_FILE), "this is not a database, just bytes ".repeat(200));
    expect(() => openSqliteStore({ dataDir: dir })).toThrow(
      expect.objectContaining({ code: "STORE_OPEN_FAILED" }),
    );
  });
});
