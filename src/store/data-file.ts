/**
 * One process per data file, held by a lock the kernel drops when the process dies. The connection runs in
 * SQLite's exclusive locking mode: its first access takes an exclusive lock on the database file (a POSIX
 * advisory lock) and keeps it until the connection closes, with the WAL index in this process's memory rather
 * than a shared -shm file. A second process on the same file cannot take the lock and is refused at once with a
 * message naming the holder; after a crash (SIGKILL, the OOM killer) the lock went with the process, so a
 * supervisor's immediate restart starts at once, with the file's pending requests intact.
 *
 * The lock is the file's own: no time-based lease to renew, none to outlive its holder. The holder's name is
 * written beside the file once the lock is held, only so that a refusal can say who has it.
 */
import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import type { DatabaseSync } from "node:sqlite";
import { UserFacingError } from "../errors.js";

/** SQLite's "database is locked": another connection holds the file. */
const SQLITE_BUSY = 5;

/** Who this process is, as the refusal of another one shows it. */
export function defaultOwner(): string {
  return `${hostname()} pid ${process.pid} (${randomUUID().slice(0, 8)})`;
}

/**
 * Puts `db` (just opened on `path`, in `dataDir`) in exclusive locking mode and takes the lock, or throws
 * DATA_FILE_IN_USE when another connection, in this process or another, holds it.
 */
export function lockDataFile(db: DatabaseSync, path: string, dataDir: string, owner = defaultOwner()): void {
  db.exec("PRAGMA locking_mode = EXCLUSIVE");
  try {
    db.exec("PRAGMA journal_mode = WAL");
    // A write transaction takes the exclusive lock whatever the file's state; exclusive mode keeps it after COMMIT.
    db.exec("BEGIN IMMEDIATE; COMMIT");
  } catch (err) {
    if ((err as { errcode?: number }).errcode !== SQLITE_BUSY) throw err;
    throw new UserFacingError(
      "DATA_FILE_IN_USE",
      `Another array-chatops process (${holderOf(path)}) is using the data file in ${dataDir}. ` +
        "Two bots on one data file would both poll and post alerts. Stop the other process, or give this one " +
        "its own store.data_dir. Not starting.",
      { cause: err },
    );
  }
  writeFileSync(`${path}.holder`, `${owner}\n`, { mode: 0o600 });
}

function holderOf(path: string): string {
  try {
    return readFileSync(`${path}.holder`, "utf8").trim() || "unknown";
  } catch {
    return "unknown";
  }
}
