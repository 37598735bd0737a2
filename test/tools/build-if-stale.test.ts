/**
 * `npm start` builds only when a source changed: the staleness check run as npm runs it, in a scratch project
 * whose "tsc" only records that it was called.
 */
import { execFile } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

const run = promisify(execFile);
const root = new URL("../..", import.meta.url).pathname;
let dir: string;

const FAKE_TSC = `
import { appendFileSync, mkdirSync } from "node:fs";
const root = new URL("../../..", import.meta.url).pathname;
appendFileSync(root + "builds.log", "built\\n");
mkdirSync(root + "dist", { recursive: true });
if (process.env.FAIL_BUILD) { console.error("error TS1005"); process.exit(2); }
`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "fc-build-"));
  mkdirSync(join(dir, "tools"));
  cpSync(join(root, "tools", "build-if-stale.mjs"), join(dir, "tools", "build-if-stale.mjs"));
  mkdirSync(join(dir, "node_modules", "typescript", "bin"), { recursive: true });
  writeFileSync(join(dir, "node_modules", "typescript", "bin", "tsc"), FAKE_TSC);
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "main.ts"), "export {};\n");
  writeFileSync(join(dir, "tsconfig.build.json"), "{}\n");
  const past = new Date(Date.now() - 60_000);
  for (const p of ["src/main.ts", "src", "package.json", "tsconfig.build.json"])
    utimesSync(join(dir, p), past, past);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const builds = () =>
  existsSync(join(dir, "builds.log"))
    ? readFileSync(join(dir, "builds.log"), "utf8").split("\n").filter(Boolean).length
    : 0;
const check = (env: Record<string, string> = {}) =>
  run(process.execPath, [join(dir, "tools", "build-if-stale.mjs")], {
    env: { PATH: process.env["PATH"] ?? "", ...env },
  });

describe("build once", () => {
  test("builds on a fresh clone, not again while nothing changed, and again after an edit", async () => {
    await check();
    expect(builds()).toBe(1);
    await check();
    await check();
    expect(builds()).toBe(1);
    const later = new Date();
    utimesSync(join(dir, "src", "main.ts"), later, later);
    await check();
    expect(builds()).toBe(2);
    await check();
    expect(builds()).toBe(2);
  });

  test("benchmark output under bench/results is no source: writing it does not make the next start build", async () => {
    await check();
    const before = builds();
    mkdirSync(join(dir, "bench", "results"), { recursive: true });
    writeFileSync(join(dir, "bench", "results", "client.json"), "{}\n");
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(dir, "bench"), past, past);
    await check();
    writeFileSync(join(dir, "bench", "results", "store.json"), "{}\n");
    await check();
    expect(builds()).toBe(before);
  });

  test("a failed build leaves no stamp and stops the start", async () => {
    rmSync(join(dir, "dist", ".build-stamp"), { force: true });
    await expect(check({ FAIL_BUILD: "1" })).rejects.toMatchObject({ code: 2 });
    expect(existsSync(join(dir, "dist", ".build-stamp"))).toBe(false);
  });

  test("npm start and the simulator go through the check, never an unconditional build", () => {
    const scripts = (
      JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }
    ).scripts;
    for (const name of ["start", "simulator"]) {
      expect(scripts[name]).toMatch(/^node tools\/build-if-stale\.mjs && node dist\//);
      expect(scripts[name]).not.toContain("npm run");
    }
  });
});
