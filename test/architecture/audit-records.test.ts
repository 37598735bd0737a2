/**
 * One audit record builder (issue 40): a record is made by `auditRecord` in src/core/audit/audit.ts and nowhere else,
 * so every path writes the same fields for the same facts. The check reads every source file and flags one that
 * writes a record's own fields in a literal or hands an auditor anything but what the builder made; it is tried
 * on samples first, so a check that passes because it sees nothing is caught.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { REPO, sourceFiles } from "./source-graph.js";

const BUILDER = "src/core/audit/audit.ts";

/** Whether `source` builds an audit record itself instead of asking the builder. */
function buildsRecord(source: string): boolean {
  return (
    // The record's duration is the builder's to work out; a literal holding it is a record by hand.
    /\bdurationMs\s*:/.test(source) ||
    /:\s*AuditRecord\s*=\s*\{/.test(source) ||
    /\.record\(\s*\{[^}]*\bdecision\s*:/s.test(source) ||
    /\bauditor\.record\((?!\s*auditRecord\()/.test(source)
  );
}

test("the check flags a record built by hand and passes one the builder made", () => {
  expect(buildsRecord(`const rec: AuditRecord = { id, at, decision };`)).toBe(true);
  expect(buildsRecord(`await rt.auditor.record({\n id: x,\n decision: "expired",\n durationMs: 0 });`)).toBe(
    true,
  );
  expect(buildsRecord(`rt.auditor.record(rec);`)).toBe(true);
  expect(
    buildsRecord(`rt.auditor.record(\n  auditRecord({ id, decision: "expired", outcome: "ok" }),\n);`),
  ).toBe(false);
});

test("no module but src/core/audit/audit.ts builds an audit record", () => {
  const files = sourceFiles(["src", "commands"]);
  expect(files).toContain(BUILDER);
  const byHand = files.filter((f) => f !== BUILDER && buildsRecord(readFileSync(join(REPO, f), "utf8")));
  expect(byHand).toEqual([]);
});
