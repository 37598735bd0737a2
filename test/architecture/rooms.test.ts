/**
 * src/core has rooms (issue 40): every module lives in a room that says what it holds in its README, and a
 * room imports at run time only from the rooms below it in ROOMS. Types may cross in any direction: they are
 * erased and carry no start-up order. The checker is tried on a sample first, so a rule that passes because it
 * sees nothing is caught.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { type ImportEdge, importGraph, REPO, sourceFiles } from "./source-graph.js";

/** The rooms, lowest first: a room may import at run time from the rooms before it, never after. */
const ROOMS = [
  "words",
  "presentation",
  "context",
  "forecast",
  "access",
  "audit",
  "catalogue",
  "requests",
  "approvals",
  "change-control",
  "pipeline",
] as const;

const roomOf = (path: string): string | undefined =>
  path.startsWith("src/core/") ? path.split("/")[2] : undefined;

/** Runtime imports from one room to a room above it (or to one ROOMS does not name). */
function upward(edges: readonly ImportEdge[]): string[] {
  const rank = (room: string) => ROOMS.indexOf(room as (typeof ROOMS)[number]);
  return edges
    .filter((e) => e.runtime)
    .filter((e) => {
      const a = roomOf(e.from);
      const b = roomOf(e.to);
      return (
        a !== undefined && b !== undefined && a !== b && (rank(b) < 0 || rank(a) < 0 || rank(b) > rank(a))
      );
    })
    .map((e) => `${e.from} → ${e.to}`);
}

describe("the rooms checker", () => {
  test("flags a runtime import up the order and lets types and downward imports pass", () => {
    const sample: ImportEdge[] = [
      { from: "src/core/words/tokenize.ts", to: "src/core/pipeline/pipeline.ts", runtime: true },
      { from: "src/core/words/tokenize.ts", to: "src/core/pipeline/pipeline.ts", runtime: false },
      { from: "src/core/pipeline/pipeline.ts", to: "src/core/words/tokenize.ts", runtime: true },
      { from: "src/core/nowhere/x.ts", to: "src/core/words/tokenize.ts", runtime: true },
    ];
    expect(upward(sample)).toEqual([
      "src/core/words/tokenize.ts → src/core/pipeline/pipeline.ts",
      "src/core/nowhere/x.ts → src/core/words/tokenize.ts",
    ]);
  });
});

describe("src/core's rooms", () => {
  const core = join(REPO, "src/core");
  const folders = readdirSync(core).filter((f) => statSync(join(core, f)).isDirectory());

  test("every module of src/core is in a room; no file is left loose at its top", () => {
    const loose = readdirSync(core).filter((f) => !statSync(join(core, f)).isDirectory());
    expect(loose).toEqual([]);
    expect(sourceFiles(["src/core"]).length).toBeGreaterThan(60);
  });

  test("the rooms are the folders, each in the order", () => {
    expect([...folders].sort()).toEqual([...ROOMS].sort());
  });

  test("each room opens with a README that says what it holds", () => {
    const silent = folders.filter((room) => {
      const readme = join(core, room, "README.md");
      if (!existsSync(readme)) return true;
      const [title, , first] = readFileSync(readme, "utf8").split("\n");
      return !title?.startsWith(`# src/core/${room}`) || (first ?? "").trim().length < 40;
    });
    expect(silent).toEqual([]);
  });

  test("a room imports at run time only from the rooms below it", () => {
    expect(upward(importGraph(["src/core"]))).toEqual([]);
  });

  test("docs/architecture.md names every room", () => {
    const page = readFileSync(join(REPO, "docs/architecture.md"), "utf8");
    expect(folders.filter((room) => !page.includes(`src/core/${room}/`))).toEqual([]);
  });
});
