/**
 * Console attachments (the full CSV of a long listing, a chart) are saved as files and the answer says where.
 * The directory is the one the environment names (TMPDIR, through os.tmpdir()); if it does not exist it is
 * created, and if nothing can be written the answer says so instead of ending the session.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { type Attachment, isSpooled } from "../core/message.js";

function reasonOf(err: unknown): string {
  return err instanceof Error && "code" in err ? String(err.code) : String(err);
}

export function attachmentSaver(dir?: string, base: () => string = tmpdir): (a: Attachment) => string {
  let target = dir;
  const folder = (): string => {
    if (target !== undefined) {
      mkdirSync(target, { recursive: true });
      return target;
    }
    const root = base();
    mkdirSync(root, { recursive: true });
    target = mkdtempSync(join(root, "array-chatops-"));
    return target;
  };
  return (a) => {
    try {
      // The file name comes from a command definition, but never trust a path in it.
      const path = join(folder(), basename(a.filename));
      if (isSpooled(a.content)) {
        copyFileSync(a.content.path, path);
        rmSync(join(a.content.path, ".."), { recursive: true, force: true });
      } else {
        writeFileSync(path, a.content);
      }
      return `[${a.title}: saved to ${path}]`;
    } catch (err) {
      const where = target ?? base();
      return `[${a.title}: not saved, ${where} is not writable (${reasonOf(err)}); set TMPDIR to a writable directory]`;
    }
  };
}
