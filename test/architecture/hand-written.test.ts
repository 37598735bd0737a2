/**
 * A hand-written command remains only where behaviour differs from the catalogue's generic verbs, and says why
 * in its first comment (issue 26): every file under commands/ that defines a command opens with a comment.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { REPO, sourceFiles } from "./source-graph.js";

const defining = sourceFiles(["commands"]).filter((f) =>
  readFileSync(join(REPO, f), "utf8").includes("defineCommand("),
);

describe("hand-written commands", () => {
  test("the list is read from the repository, not typed here", () => {
    expect(defining).toContain("commands/fs/resize.ts");
    expect(defining.length).toBeGreaterThan(40);
  });

  test("each file that defines one opens with a comment (its first comment is where it says why)", () => {
    const silent = defining.filter((f) => !/^\/(\*\*|\/)/.test(readFileSync(join(REPO, f), "utf8")));
    expect(silent).toEqual([]);
  });
});
