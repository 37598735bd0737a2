/** Console attachments (the full CSV of a long listing) are saved as files and the answer says where. */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { type Attachment, isSpooled } from "../core/message.js";

export function attachmentSaver(dir?: string): (a: Attachment) => string {
  let target = dir;
  return (a) => {
    target ??= mkdtempSync(join(tmpdir(), "array-chatops-"));
    mkdirSync(target, { recursive: true });
    // The file name comes from a command definition, but never trust a path in it.
    const path = join(target, basename(a.filename));
    if (isSpooled(a.content)) {
      copyFileSync(a.content.path, path);
      rmSync(join(a.content.path, ".."), { recursive: true, force: true });
    } else {
      writeFileSync(path, a.content);
    }
    return `[${a.title}: saved to ${path}]`;
  };
}
