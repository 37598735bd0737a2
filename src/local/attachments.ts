/**
 * Console attachments (the full CSV of a long listing, a chart) are saved as files and the answer says where.
 * The directory is the one the environment names (TMPDIR, through os.tmpdir()); if it does not exist it is
 * created, and if nothing can be written the answer says so instead of ending the session.
 *
 * Charts are only something to look at while the session runs, so they are removed when the console exits
 * (and the directory with them when nothing else is in it); a CSV is data the person asked for and stays.
 */
import { copyFileSync, mkdtempSync, readdirSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { type Attachment, isSpooled } from "../core/presentation/message.js";
import { makeDirs } from "../make-dirs.js";

function reasonOf(err: unknown): string {
  return err instanceof Error && "code" in err ? String(err.code) : String(err);
}

export interface AttachmentSaver {
  /** Saves `a` and returns the line that says where; a `transient` file is removed by close(). */
  (a: Attachment, how?: { transient?: boolean }): string;
  /** Removes the transient files, and the directory this saver made when it is left empty. */
  close(): void;
}

export function attachmentSaver(dir?: string, base: () => string = tmpdir): AttachmentSaver {
  let target = dir;
  let made: string | undefined;
  const transient: string[] = [];
  const folder = (): string => {
    if (target !== undefined) {
      makeDirs(target);
      return target;
    }
    const root = base();
    makeDirs(root);
    target = mkdtempSync(join(root, "array-chatops-"));
    made = target;
    return target;
  };
  const save = (a: Attachment, how?: { transient?: boolean }): string => {
    try {
      // The file name comes from a command definition, but never trust a path in it.
      const path = join(folder(), basename(a.filename));
      if (isSpooled(a.content)) {
        copyFileSync(a.content.path, path);
        rmSync(join(a.content.path, ".."), { recursive: true, force: true });
      } else {
        writeFileSync(path, a.content);
      }
      if (how?.transient !== true) return `[${a.title}: saved to ${path}]`;
      transient.push(path);
      return `[${a.title}: saved to ${path}; removed when the console exits]`;
    } catch (err) {
      const where = target ?? base();
      return `[${a.title}: not saved, ${where} is not writable (${reasonOf(err)}); set TMPDIR to a writable directory]`;
    }
  };
  return Object.assign(save, {
    close() {
      for (const path of transient.splice(0)) rmSync(path, { force: true });
      try {
        if (made !== undefined && readdirSync(made).length === 0) rmdirSync(made);
      } catch {
        // Already gone, or not ours to judge: a directory we cannot read is left as it is.
      }
    },
  });
}
