/**
 * `mkdir -p`, one level at a time. Node's `mkdirSync(path, { recursive: true })` spins forever on a path under
 * /proc (it retries the parent, which exists, and the child, which the kernel never lets it make): a bot whose
 * data_dir or TMPDIR was there started with no output at 93 % CPU. Here every level is tried once.
 */
import { mkdirSync, statSync } from "node:fs";
import { dirname, parse, resolve } from "node:path";

/** Why a directory could not be made: the system's code and the level it failed at. */
export class MakeDirsError extends Error {
  constructor(
    readonly code: string,
    /** The path that could not be made or reached (the directory itself or one of its parents). */
    readonly at: string,
    /** What failed there. */
    readonly step: "reach" | "create",
  ) {
    super(`cannot ${step} ${at}: ${code}`);
    this.name = "MakeDirsError";
  }
}

const codeOf = (err: unknown) => (err instanceof Error && "code" in err ? String(err.code) : "EIO");

/** Creates `dir` and the parents it lacks (each with `mode`); throws MakeDirsError naming the level that failed. */
export function makeDirs(dir: string, mode = 0o777): void {
  const target = resolve(dir);
  const chain: string[] = [];
  for (let p = target; p !== parse(p).root; p = dirname(p)) chain.unshift(p);
  for (const p of chain) {
    let isDir: boolean | undefined;
    try {
      isDir = statSync(p).isDirectory();
    } catch (err) {
      if (codeOf(err) !== "ENOENT") throw new MakeDirsError(codeOf(err), p, "reach");
    }
    if (isDir === false) throw new MakeDirsError("ENOTDIR", p, "create");
    if (isDir === true) continue;
    try {
      mkdirSync(p, { mode });
    } catch (err) {
      // Made meanwhile by another process: fine if it is a directory.
      const code = codeOf(err);
      if (code !== "EEXIST" || !statSync(p).isDirectory()) throw new MakeDirsError(code, p, "create");
    }
  }
}
