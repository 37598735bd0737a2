// The npm registry mirror these machines use has only some of biome's per-platform binaries, so `npm install`
// leaves the others out of package-lock.json and npm 11's `npm ci` then refuses the lock file as out of sync.
// This adds lock entries for the missing optional platform packages (they are never fetched on linux-x64,
// being for other platforms). Run it after any `npm install` that rewrites the lock file.
import { readFileSync, writeFileSync } from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(file, "utf8"));
const biome = lock.packages["node_modules/@biomejs/biome"];
if (!biome) process.exit(0);
let added = 0;
for (const [name, version] of Object.entries(biome.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  if (lock.packages[key]) continue;
  const [os, cpu, libc] = name.replace("@biomejs/cli-", "").split("-");
  lock.packages[key] = {
    version,
    cpu: [cpu],
    dev: true,
    ...(libc ? { libc: [libc] } : {}),
    license: "MIT OR Apache-2.0",
    optional: true,
    os: [os],
    engines: biome.engines,
  };
  added++;
}
const sorted = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) =>
    a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0,
  ),
);
lock.packages = sorted;
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(`lock-platform-stubs: added ${added} entries\n`);
