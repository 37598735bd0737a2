#!/usr/bin/env node
/**
 * Builds the TypeScript only when a source changed since the last build, so `npm start` costs one build after
 * a change (or on a fresh clone) and nothing after that. A build is stale when dist/.build-stamp is missing or
 * older than any file under src/, commands/, bench/, tools/ or the files that shape the build.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const STAMP = join(root, "dist", ".build-stamp");
const TREES = ["src", "commands", "bench", "tools"];
const FILES = ["tsconfig.json", "tsconfig.build.json", "package.json", "package-lock.json"];

/** Benchmark output lives under bench/ but is no source: a bench run must not make the next start rebuild. */
const OUTPUT = join(root, "bench", "results");

function newest(path) {
  if (path === OUTPUT) return 0;
  let st;
  try {
    st = statSync(path);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs; // a deleted or renamed file changes its directory's time
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
  return max;
}

function stampTime() {
  try {
    return statSync(STAMP).mtimeMs;
  } catch {
    return -1;
  }
}

const sources = Math.max(
  ...TREES.map((t) => newest(join(root, t))),
  ...FILES.map((f) => newest(join(root, f))),
);
if (stampTime() >= sources) process.exit(0);

const started = Date.now();
const tsc = spawnSync(
  process.execPath,
  [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(root, "tsconfig.build.json")],
  {
    cwd: root,
    stdio: "inherit",
  },
);
if (tsc.status !== 0) {
  process.stderr.write("The TypeScript build failed (see above); nothing was started.\n");
  process.exit(tsc.status ?? 1);
}
// The stamp takes the time the build started: a file saved during the build makes the next start build again.
writeFileSync(STAMP, `${new Date(started).toISOString()}\n`);
utimesSync(STAMP, new Date(started), new Date(started));
