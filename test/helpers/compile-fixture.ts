/**
 * Compiles one TypeScript fixture (and what it imports) to JS, for tests whose child must be a plain node
 * process rather than vitest (it gets killed, or it competes for a file with the test). The output lives under
 * node_modules/.cache (ignored by git, inside the repo so the child resolves our dependencies).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Returns the build directory; the fixture's JS is at `<dir>/<fixture path with .js>`. */
export function compileFixture(fixture: string, prefix: string): string {
  const cache = join(REPO, "node_modules", ".cache");
  mkdirSync(cache, { recursive: true });
  const buildDir = mkdtempSync(join(cache, `${prefix}-`));
  // typescript's exports map hides bin/, so locate the package root through its package.json.
  const tsc = join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin", "tsc");
  execFileSync(process.execPath, [
    tsc,
    "--ignoreConfig",
    "--outDir",
    buildDir,
    "--rootDir",
    REPO,
    "--module",
    "nodenext",
    "--moduleResolution",
    "nodenext",
    "--target",
    "es2023",
    "--types",
    "node",
    "--skipLibCheck",
    join(REPO, fixture),
  ]);
  writeFileSync(join(buildDir, "package.json"), '{"type":"module"}');
  return buildDir;
}
