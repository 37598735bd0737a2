/**
 * One vocabulary at the ground floor (issue 40): the role ladder, the classes of harm and the duration words are
 * declared in src/vocabulary.ts and nowhere else. Each check reads every source file of the repository and looks
 * for a second declaration: a list or union of the role names, a table ranking them, a list of the classes.
 */
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { DESTRUCTIVE_CLASSES, ROLES } from "../../src/vocabulary.js";
import { sourceFiles } from "./source-graph.js";

const files = sourceFiles(["src", "commands", "bench", "tools"]).filter((f) => f !== "src/vocabulary.ts");
const text = new Map(files.map((f) => [f, readFileSync(f, "utf8")]));

/** The files where `re` matches. */
const where = (re: RegExp) => files.filter((f) => re.test(text.get(f) ?? ""));

test("the role ladder is declared once: no other list, union or rank table of its names", () => {
  const [a, b, c] = ROLES;
  const q = `["']`;
  const list = new RegExp(`\\[\\s*${q}${a}${q}\\s*,\\s*${q}${b}${q}\\s*,\\s*${q}${c}${q}\\s*\\]`);
  const union = new RegExp(`${q}${a}${q}\\s*\\|\\s*${q}${b}${q}\\s*\\|\\s*${q}${c}${q}`);
  const rank = new RegExp(`\\{\\s*${a}:\\s*\\d+,\\s*${b}:\\s*\\d+,\\s*${c}:\\s*\\d+\\s*\\}`);
  expect(where(list)).toEqual([]);
  expect(where(union)).toEqual([]);
  expect(where(rank)).toEqual([]);
});

test("the classes of harm are declared once: no second union of their names", () => {
  // A declaration spells several classes joined by `|` in a row; any three in a row is a second list.
  const names = DESTRUCTIVE_CLASSES.join("|");
  const one = `["'](?:${names})["']`;
  const run = new RegExp(`(?:${one}\\s*\\|\\s*){2}${one}`);
  expect(where(run)).toEqual(["src/rest-spec/policy.ts"]);
});

test("the duration words are parsed in one place", () => {
  expect(where(/export function parseDuration\(/)).toEqual([]);
});
