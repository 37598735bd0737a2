/**
 * Where the console puts a secret shown once (a new access key's secret, a connection key) when its output is
 * not a terminal: a pipe or a file is a log someone keeps, which the secret must never reach unless the person
 * asked for it (`--show-secret`). It goes to a file only its owner can read, and the answer says where.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeDirs } from "../make-dirs.js";

/** Keeps `secret` aside and returns the note printed in its place. */
export type SecretKeeper = (secret: string) => string;

export function secretFileKeeper(base: () => string = tmpdir): SecretKeeper {
  let n = 0;
  return (secret) => {
    try {
      const root = base();
      makeDirs(root);
      // mkdtemp makes the directory 0700 and the file is 0600: no other user on the machine can read either.
      const dir = mkdtempSync(join(root, "array-chatops-secret-"));
      const path = join(dir, `secret-${++n}.txt`);
      writeFileSync(path, `${secret}\n`, { mode: 0o600 });
      return `(The secret is not printed: the output is not a terminal. It is in ${path}, readable only by you: store it in your vault, then delete the file. Start with --show-secret to print it instead.)`;
    } catch (err) {
      const reason = err instanceof Error && "code" in err ? String(err.code) : String(err);
      return `(The secret is not printed: the output is not a terminal, and it could not be saved to a file (${reason}). Start with --show-secret to print it, or set TMPDIR to a writable directory.)`;
    }
  };
}
