/**
 * The REST 2.x facts the interface tables are generated from (../shared/reference/flashblade-rest-2x/), read as
 * tests need them: the operations of 2.28 and the family each belongs to. Tests that claim to cover "every 2.x
 * operation" read their list here, never from a copy.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { LoggedRequest, Simulator } from "../../src/simulator/index.js";
import { REPO } from "./compile-fixture.js";

/** A file of the 2.x facts beside the clone (as in CI) or beside the nearest directory above a nested worktree. */
export function factsFile(name: string): string {
  const rel = join("shared", "reference", "flashblade-rest-2x", name);
  for (let dir = dirname(REPO); ; dir = dirname(dir)) {
    if (existsSync(join(dir, rel))) return join(dir, rel);
    if (dirname(dir) === dir) return resolve(REPO, "..", rel);
  }
}

export interface Fact2x {
  method: string;
  /** Below /api/<version>. */
  path: string;
  family: string;
}

/** Every versioned operation 2.28 still has (rows whose `last` is empty, below /api/<ver>/). */
export function versioned2x(): Fact2x[] {
  const [head = "", ...rows] = readFileSync(factsFile("endpoints.tsv"), "utf8").split("\n").filter(Boolean);
  const col = Object.fromEntries(head.split("\t").map((k, i) => [k, i]));
  const at = (r: string[], k: string) => r[col[k] as number] ?? "";
  return rows
    .map((r) => r.split("\t"))
    .filter((r) => at(r, "last") === "" && at(r, "path").startsWith("/api/<ver>/"))
    .map((r) => ({
      method: at(r, "method"),
      path: at(r, "path").slice("/api/<ver>".length),
      family: at(r, "family"),
    }));
}

/** The 2.x operations that change something: every method but GET. */
export const changing2x = (): Fact2x[] => versioned2x().filter((f) => f.method !== "GET");

/** Every request the simulators logged since their stats were reset, below /api/<version> (the array's own). */
export function requestsAt(sims: Iterable<Simulator>): LoggedRequest[] {
  return [...sims].flatMap((sim) => {
    const s = sim.control.stats();
    if (s.total > s.recent.length) throw new Error(`the request log kept ${s.recent.length} of ${s.total}`);
    return s.recent.filter((r) => /^\/api\/\d+\.\d+\//.test(r.path));
  });
}

/**
 * The requests the simulators logged since their stats were reset that change something: any method but GET on
 * a versioned path (login and logout are /api/login and /api/logout, the token endpoint /oauth2/…: the session's
 * own, not the array's state). Read from the request log, so it is what reached the array, not what a reply said.
 */
export function changesAt(sims: Iterable<Simulator>): string[] {
  return requestsAt(sims)
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.path}`);
}
