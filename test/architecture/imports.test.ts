/**
 * The shape the README promises, checked on the sources: no runtime import cycles; src/core and src/flashblade
 * never import Slack; the simulator never imports the array client (the endpoint table lives in src/rest-spec);
 * commands never import a transport. The graph reader is tested on samples first, so a check that passes
 * because the reader sees nothing is caught.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { type ImportEdge, importGraph, REPO, runtimeCycles, sourceFiles } from "./source-graph.js";

const edges = importGraph(["src", "commands"]);
const runtime = edges.filter((e) => e.runtime);

/** Edges from files under `from` to anything matching `to`. */
const offending = (list: readonly ImportEdge[], from: string, to: RegExp) =>
  list.filter((e) => e.from.startsWith(from) && to.test(e.to)).map((e) => `${e.from} → ${e.to}`);

describe("the import graph reader", () => {
  test("sees the project's imports, tells type-only ones apart and resolves .js to .ts", () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual({
      from: "src/core/pipeline/pipeline.ts",
      to: "src/core/pipeline/click-flow.ts",
      runtime: true,
    });
    expect(edges).toContainEqual({
      from: "src/core/pipeline/pipeline.ts",
      to: "src/core/context/pipeline-deps.ts",
      runtime: false,
    });
    expect(edges).toContainEqual({ from: "src/slack/app.ts", to: "@slack/bolt", runtime: true });
  });

  test("finds a cycle when there is one", () => {
    const sample: ImportEdge[] = [
      { from: "a.ts", to: "b.ts", runtime: true },
      { from: "b.ts", to: "c.ts", runtime: true },
      { from: "c.ts", to: "a.ts", runtime: true },
      { from: "c.ts", to: "d.ts", runtime: true },
      { from: "d.ts", to: "c.ts", runtime: false },
    ];
    expect(runtimeCycles(sample)).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });
});

describe("architecture", () => {
  test("no runtime import cycles", () => {
    expect(runtimeCycles(edges)).toEqual([]);
  });

  test("src/core and src/flashblade never import Slack (src/slack or @slack/*), not even types", () => {
    const slack = /^(src\/slack\/|@slack\/)/;
    expect([...offending(edges, "src/core/", slack), ...offending(edges, "src/flashblade/", slack)]).toEqual(
      [],
    );
  });

  test("the MCP face is a face: src/core, src/flashblade and the other faces never import it", () => {
    const mcp = /^(src\/mcp\/|@modelcontextprotocol\/)/;
    const from = ["src/core/", "src/flashblade/", "src/slack/", "src/local/", "commands/"];
    expect(from.flatMap((f) => offending(edges, f, mcp))).toEqual([]);
    expect(offending(edges, "src/mcp/", /^src\/(slack|local)\//)).toEqual([]);
  });

  test("the simulator never imports the array client", () => {
    expect(offending(runtime, "src/simulator/", /^src\/flashblade\//)).toEqual([]);
    expect(offending(edges, "src/simulator/", /^src\/flashblade\//)).toEqual([]);
  });

  test("one edit distance: a single definition, in src/edit-distance.ts", () => {
    const defining = sourceFiles(["src", "commands"]).filter((f) =>
      /function\s+(editDistance|levenshtein)\b/i.test(readFileSync(join(REPO, f), "utf8")),
    );
    expect(defining).toEqual(["src/edit-distance.ts"]);
  });

  // Layering: core never reaches up into the alert face, and the store never into core: the alert port's types
  // are core's (src/core/context/alert-port.ts), and the pending stores built on a Store live in core. No exceptions.
  const KNOWN: Record<string, readonly string[]> = {
    "src/core/ → src/alerts/": [],
    "src/store/ → src/core/": [],
    "src/config/ → src/core/": [],
  };

  test("src/core never imports src/alerts, not even types (but for the known edge)", () => {
    expect(offending(edges, "src/core/", /^src\/alerts\//)).toEqual(KNOWN["src/core/ → src/alerts/"]);
  });

  test("src/store never imports src/core, not even types (but for the known edge)", () => {
    expect(offending(edges, "src/store/", /^src\/core\//)).toEqual(KNOWN["src/store/ → src/core/"]);
  });

  test("src/config never imports src/core, not even types: the words they share are the ground floor's (src/vocabulary.ts)", () => {
    expect(offending(edges, "src/config/", /^src\/core\//)).toEqual(KNOWN["src/config/ → src/core/"]);
  });

  test("commands never import a transport", () => {
    expect(offending(edges, "commands/", /^(src\/slack\/|src\/local\/|@slack\/)/)).toEqual([]);
  });
});
