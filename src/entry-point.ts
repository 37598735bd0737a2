/**
 * Whether a module is the file node was asked to run. Node loads the main module by its real path, while
 * `process.argv[1]` keeps the path as typed, so through a symlink (`node /opt/bot/dist/src/main.js` with /opt/bot
 * a link to a release folder, npm's bin links) a plain URL comparison says "not the entry" and the process
 * silently does nothing. Both sides are resolved to real paths first.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

export function isEntryPoint(moduleUrl: string, argv1: string | undefined): boolean {
  if (!argv1) return false;
  try {
    return realpathSync(fileURLToPath(moduleUrl)) === realpathSync(argv1);
  } catch {
    return false;
  }
}
