/** `node <symlink>/dist/src/main.js` runs the bot: the entry check resolves links before comparing. */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, test } from "vitest";
import { isEntryPoint } from "../../src/entry-point.js";

const dir = mkdtempSync(join(tmpdir(), "entry-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the entry check", () => {
  const release = join(dir, "releases", "42");
  mkdirSync(join(release, "dist", "src"), { recursive: true });
  const real = join(release, "dist", "src", "main.js");
  writeFileSync(real, "");
  const link = join(dir, "current");
  symlinkSync(release, link);

  test("the module run through a symlinked folder is the entry; another file is not", () => {
    const typed = join(link, "dist", "src", "main.js");
    // What node reports when started as `node <link>/dist/src/main.js`: the real path as the module URL.
    expect(isEntryPoint(pathToFileURL(real).href, typed)).toBe(true);
    expect(isEntryPoint(pathToFileURL(real).href, real)).toBe(true);
    expect(isEntryPoint(pathToFileURL(real).href, join(dir, "other.js"))).toBe(false);
    expect(isEntryPoint(pathToFileURL(real).href, undefined)).toBe(false);
  });

  test("node itself gives the real path as import.meta.url and the typed path as argv[1]", () => {
    const probe = join(release, "probe.mjs");
    writeFileSync(probe, "console.log(JSON.stringify([import.meta.url, process.argv[1]]));\n");
    const out = spawnSync(process.execPath, [join(link, "probe.mjs")], { encoding: "utf8" });
    const [url, argv1] = JSON.parse(out.stdout) as [string, string];
    expect(url).toBe(pathToFileURL(probe).href);
    expect(argv1).toBe(join(link, "probe.mjs"));
    expect(isEntryPoint(url, argv1)).toBe(true);
  });
});
