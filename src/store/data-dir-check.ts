/**
 * Makes sure the data directory exists and the bot may write in it before SQLite opens a file there, and says
 * which setting and why when not (the directory is made level by level: ../make-dirs.ts, which never spins).
 */
import { accessSync, constants } from "node:fs";
import { resolve } from "node:path";
import { UserFacingError } from "../errors.js";
import { MakeDirsError, makeDirs } from "../make-dirs.js";

const REASONS: Readonly<Record<string, string>> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOTDIR: "a part of the path is a file, not a directory",
  EROFS: "the file system is read-only",
  ENOENT: "the file system there does not let it be created",
  ENOSPC: "no space left on the device",
  EEXIST: "something that is not a directory is in the way",
};

function unusable(dir: string, at: string, code: string, doing: string): UserFacingError {
  const why = REASONS[code] ?? "it failed";
  const where = at === dir ? dir : `${dir} (at ${at})`;
  return new UserFacingError(
    "STORE_DATA_DIR_UNUSABLE",
    `store.data_dir: cannot ${doing} ${where}: ${code}, ${why}. Set store.data_dir (or ARRAY_CHATOPS_DATA_DIR) ` +
      "to a directory the bot can create and write, on a local disk. Not starting.",
    { details: { dataDir: dir, code } },
  );
}

/** Creates `dir` as needed (mode 0700 for what it creates) and checks it is a directory the bot may write. */
export function prepareDataDir(dir: string): void {
  const target = resolve(dir);
  try {
    makeDirs(target, 0o700);
  } catch (err) {
    if (err instanceof MakeDirsError) throw unusable(target, err.at, err.code, err.step);
    throw err;
  }
  try {
    accessSync(target, constants.W_OK | constants.X_OK);
  } catch (err) {
    throw unusable(
      target,
      target,
      err instanceof Error && "code" in err ? String(err.code) : "EIO",
      "write in",
    );
  }
}
