/**
 * The import graph of the project's own sources, read from the files: which module imports which, and whether
 * the import exists at run time (`import type` and all-`type` specifier lists are erased by the compiler).
 * Dynamic `import()` is left out: it runs late, so it cannot form a start-up cycle.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export interface ImportEdge {
  /** Repository-relative path of the importing file. */
  from: string;
  /** Repository-relative path of the imported file, or the package specifier ("@slack/bolt"). */
  to: string;
  /** False for imports the compiler erases. */
  runtime: boolean;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith(".ts") && !p.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

/** Repository-relative paths of every .ts file under `roots`. */
export function sourceFiles(roots: readonly string[]): string[] {
  return roots.flatMap((r) => walk(join(REPO, r)).map((f) => relative(REPO, f)));
}

/** Comments out of the way, so an import shown in a comment does not count. */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

const STATEMENT = /(?:^|[;\n])\s*(import|export)\s+(type\s+)?([^;]*?)\s*from\s*["']([^"']+)["']/g;
const BARE = /(?:^|[;\n])\s*import\s*["']([^"']+)["']/g;

function resolveSpecifier(fromFile: string, spec: string): string {
  if (!spec.startsWith(".")) return spec;
  const base = resolve(dirname(fromFile), spec);
  const candidates = [base.replace(/\.js$/, ".ts"), `${base}.ts`, join(base, "index.ts")];
  const hit = candidates.find((c) => existsSync(c)) ?? base;
  return relative(REPO, hit);
}

/** Every import of every .ts file under `roots` (repository-relative folders). */
export function importGraph(roots: readonly string[]): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const root of roots) {
    for (const file of walk(join(REPO, root))) {
      const text = stripComments(readFileSync(file, "utf8"));
      const from = relative(REPO, file);
      for (const m of text.matchAll(STATEMENT)) {
        const typeOnly = m[2] !== undefined;
        const clause = m[3] ?? "";
        const braces = /\{([\s\S]*)\}/.exec(clause);
        const beforeBraces = braces ? clause.slice(0, braces.index).replace(/[\s,]/g, "") : clause.trim();
        const names = braces?.[1]
          ?.split(",")
          .map((n) => n.trim())
          .filter(Boolean);
        const allTypes =
          names !== undefined &&
          names.length > 0 &&
          beforeBraces === "" &&
          names.every((n) => n.startsWith("type "));
        edges.push({ from, to: resolveSpecifier(file, m[4] ?? ""), runtime: !typeOnly && !allTypes });
      }
      for (const m of text.matchAll(BARE))
        edges.push({ from, to: resolveSpecifier(file, m[1] ?? ""), runtime: true });
    }
  }
  return edges;
}

/** Cycles among runtime imports: every strongly connected component with more than one file, or a self-loop. */
export function runtimeCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (!e.runtime || !e.to.endsWith(".ts")) continue;
    next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  }
  // Tarjan's algorithm.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (next.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return out;
}
