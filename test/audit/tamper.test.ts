/**
 * The tamper test: a real export (commands through the pipeline over the simulator, records chained in a store
 * and written by the file exporter), then edited the ways someone covering their tracks would; `audit:verify`
 * (the tool's own entry function, reading the files) names the right seq and what happened to it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAuditExport } from "../../src/audit-export/index.js";
import { auditExportSchema } from "../../src/config/audit-export.js";
import { createAuditChain, recordHash } from "../../src/core/audit/audit-chain.js";
import { silentLogger } from "../../src/logger.js";
import { createMemoryStore } from "../../src/store/memory.js";
import { auditVerifyMain } from "../../tools/audit-verify.js";
import { startHarness } from "../core/harness.js";

let dir: string;
let lines: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "audit-tamper-"));
  const file = join(dir, "audit.jsonl");
  const exporter = openAuditExport(auditExportSchema.parse({ file }), { logger: silentLogger() });
  const chain = createAuditChain(createMemoryStore(), { onPlaced: (r) => exporter.enqueue(r) });
  const h = await startHarness({ arrays: [{ name: "lab-1" }, { name: "lab-2" }], auditChain: chain });
  try {
    await h.run("bob", "fs list --array lab-1");
    await h.run("carol", "fs resize scratch 4T --array lab-2");
    const card = await h.run("bob", "fs resize scratch 4T --array lab-2");
    await h.click("dave", card, "Approve");
    await h.run("bob", "frobnicate the array");
    await h.run("alice", "fs list --array lab-2");
    // A secret typed into a command is redacted before the record is hashed, so it is in no export.
    await h.run(
      "alice",
      "directory update management --bind-password hunter2-export --uris ldaps://l1 --array lab-1",
    );
    expect(h.audits.map((r) => r.seq)).toEqual(h.audits.map((_, i) => i + 1));
  } finally {
    await h.close();
  }
  await exporter.flush();
  await exporter.close();
  const text = readFileSync(file, "utf8");
  expect(text).toContain("directory update management");
  expect(text).not.toContain("hunter2");
  lines = text.trimEnd().split("\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes the lines to a file of their own and runs audit:verify on it. */
function verify(name: string, content: readonly string[]): { code: number; out: string } {
  const path = join(dir, name);
  writeFileSync(path, content.map((l) => `${l}\n`).join(""));
  const out: string[] = [];
  const code = auditVerifyMain(["--", path], { out: (l) => out.push(l), err: (l) => out.push(l) });
  return { code, out: out.join("\n") };
}

const edit = (line: string, fn: (r: Record<string, unknown>) => void): string => {
  const r = JSON.parse(line) as Record<string, unknown>;
  fn(r);
  return JSON.stringify(r);
};
const at = (seq: number) => seq - 1;

describe("audit:verify on an exported file", () => {
  it("finds the untouched export intact, every record in chain order", () => {
    expect(lines.length).toBeGreaterThanOrEqual(7);
    expect(lines.map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual(lines.map((_, i) => i + 1));
    expect(verify("untouched.jsonl", lines)).toEqual({
      code: 0,
      out: `ok: ${lines.length} records, chain intact, seq 1 to ${lines.length}`,
    });
  });

  it("names a record whose field was changed", () => {
    const copy = [...lines];
    copy[at(3)] = edit(copy[at(3)] as string, (r) => {
      r.userId = "mallory";
    });
    const r = verify("changed.jsonl", copy);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^seq 3 changed: /);
  });

  it("names a record that was changed and given a fresh hash, by the link the next one holds", () => {
    const copy = [...lines];
    copy[at(4)] = edit(copy[at(4)] as string, (r) => {
      r.decision = "denied";
      r.hash = recordHash(r);
    });
    const r = verify("rehashed.jsonl", copy);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^seq 4 changed: its hash is not the prev_hash that seq 5/);
  });

  it("names a deleted line as removed", () => {
    const copy = lines.filter((_, i) => i !== at(4));
    const r = verify("removed.jsonl", copy);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^seq 4 removed: seq 4 missing: seq 3 is followed by seq 5/);
  });

  it("names two swapped lines as reordered, by the earlier seq", () => {
    const copy = [...lines];
    [copy[at(2)], copy[at(3)]] = [copy[at(3)] as string, copy[at(2)] as string];
    const r = verify("swapped.jsonl", copy);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^seq 2 reordered: it is at .*swapped\.jsonl:3, after seq 3/);
  });

  it("names a record whose hash was truncated", () => {
    const copy = [...lines];
    copy[at(5)] = edit(copy[at(5)] as string, (r) => {
      r.hash = String(r.hash).slice(0, 40);
    });
    const r = verify("truncated.jsonl", copy);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^seq 5 changed: /);
  });

  it("accepts a file rotated mid-chain and says the seq it starts from", () => {
    const r = verify("rotated.jsonl", lines.slice(2));
    expect(r).toEqual({
      code: 0,
      out: `ok: ${lines.length - 2} records, chain intact, seq 3 to ${lines.length} (starts mid-chain at seq 3: earlier records are elsewhere)`,
    });
  });

  it("refuses a file that is no audit export at all, and a missing file", () => {
    expect(verify("junk.jsonl", ["hello"]).code).toBe(1);
    const out: string[] = [];
    expect(
      auditVerifyMain([join(dir, "absent.jsonl")], { out: (l) => out.push(l), err: (l) => out.push(l) }),
    ).toBe(2);
    expect(out.join("")).toMatch(/^cannot read /);
  });
});
