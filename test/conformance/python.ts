/**
 * Where Pure's vendored SDKs are, and whether a Python can run them: a machine without the SDK's Python packages
 * fails the conformance tests with one line naming what to install, never with a Python traceback. (The test files
 * import node:child_process themselves, which is what puts them in vitest's integration project.)
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const REPO = resolve(import.meta.dirname, "../..");

/**
 * An SDK in the shared checkout beside the repository (`<repo>/../shared/vendor/…`, as in CI); from a worktree
 * nested deeper, the nearest such checkout above it. `override` (an environment variable's value) names another.
 */
export function findSdk(inShared: string, marker: string, override: string | undefined): string {
  if (override) return override;
  for (let dir = dirname(REPO); ; dir = dirname(dir)) {
    const candidate = join(dir, inShared);
    if (existsSync(join(candidate, marker))) return candidate;
    if (dirname(dir) === dir) return resolve(REPO, "..", inShared);
  }
}

/**
 * Throws one line when `python` lacks a module the SDK imports: which one, and the Debian packages to install
 * (`modules` maps each module to its package).
 */
export async function requireModules(
  python: string,
  modules: Readonly<Record<string, string>>,
): Promise<void> {
  const probe = [
    "import importlib.util, sys",
    `missing = [m for m in ${JSON.stringify(Object.keys(modules))} if importlib.util.find_spec(m) is None]`,
    "print(' '.join(missing))",
  ].join("\n");
  let missing: string[];
  try {
    const { stdout } = await run(python, ["-c", probe], { timeout: 30_000 });
    missing = stdout.trim().split(/\s+/).filter(Boolean);
  } catch {
    missing = Object.keys(modules);
  }
  if (missing.length === 0) return;
  const packages = Object.values(modules).join(" ");
  throw new Error(
    `${python} lacks the Python module${missing.length > 1 ? "s" : ""} ${missing.join(", ")} that Pure's SDK ` +
      `needs: install them with \`apt-get install -y ${packages}\` (Debian packages; see README, "Conformance").`,
  );
}

/**
 * Throws one line when `module` does not import on `python` with `path` on PYTHONPATH (the modules are there but
 * the wrong versions, e.g. pydantic 2 where the SDK needs Debian's pydantic 1): the import's own last line, and `hint`.
 */
export async function requireImport(
  python: string,
  path: string,
  module: string,
  hint: string,
): Promise<void> {
  const probe = [
    "import importlib, sys",
    "try:",
    `    importlib.import_module(${JSON.stringify(module)})`,
    "except Exception as e:",
    "    print(f'{type(e).__name__}: {e}'.splitlines()[0])",
  ].join("\n");
  let said: string;
  try {
    const { stdout } = await run(python, ["-c", probe], {
      timeout: 60_000,
      env: { ...process.env, PYTHONPATH: path },
    });
    said = stdout.trim();
  } catch (e) {
    said = (e as Error).message.split("\n")[0] ?? "";
  }
  if (said) throw new Error(`${python} cannot import ${module} (${said}): ${hint}`);
}
