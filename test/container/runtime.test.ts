/**
 * One runtime everywhere: the Node major that package.json pins through the registry's `node` package is the one
 * `engines` asks for, the one the image builds on, and the one these tests (started by npm) run on, even where
 * the system Node is older. And nothing is compiled at install: no dependency but that `node` package runs an
 * install script, and no image stage installs a compiler.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDockerfile } from "./dockerfile.js";

const root = new URL("../..", import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
  allowScripts: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as {
  packages: Record<string, { version?: string; hasInstallScript?: boolean }>;
};
const dockerfile = readFileSync(join(root, "Dockerfile"), "utf8");
const major = (v: string) => Number(/(\d+)/.exec(v)?.[1]);
const pinned = major(pkg.devDependencies["node"] ?? "");

describe("the Node runtime", () => {
  it("is Node 24 LTS, pinned through the registry's node package, with engines and the image following", () => {
    expect(pinned).toBe(24);
    expect(major(lock.packages["node_modules/node"]?.version ?? "")).toBe(pinned);
    expect(pkg.allowScripts["node"]).toBe(true);
    expect(pkg.engines.node).toMatch(new RegExp(`^>=${pinned}\\.`));
    expect(/^ARG NODE_IMAGE=(\S+)$/m.exec(dockerfile)?.[1]).toBe(`node:${pinned}-slim`);
    for (const stage of parseDockerfile(dockerfile)) expect(stage.from).toMatch(/^\$\{NODE_IMAGE\}$/);
  });

  it("runs these tests: npm puts node_modules/.bin/node first on the PATH", () => {
    expect(major(process.versions.node)).toBe(pinned);
  });

  it("compiles nothing at install: no install script but the runtime's own, no compiler in the image", () => {
    const scripted = Object.entries(lock.packages)
      .filter(([, p]) => p.hasInstallScript)
      .map(([path]) => path);
    expect(scripted).toEqual(["node_modules/node"]);
    expect(Object.keys(pkg.allowScripts)).toEqual(["node"]);
    expect(dockerfile).not.toMatch(/\b(g\+\+|gcc|make|python3|build-essential)\b/);
  });
});
