/** The file export: JSON lines appended in order, mode 0600, and a file it cannot write waited out with back-off. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAuditExport } from "../../src/audit-export/index.js";
import type { Wait } from "../../src/audit-export/queue.js";
import { auditExportSchema } from "../../src/config/audit-export.js";
import { type ChainedRecord, chainAfter } from "../../src/core/audit/audit-chain.js";
import { silentLogger } from "../../src/logger.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "audit-file-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function chain(n: number): ChainedRecord[] {
  const out: ChainedRecord[] = [];
  for (let i = 0; i < n; i++)
    out.push(
      chainAfter(out.at(-1), {
        id: `r${i + 1}`,
        at: "2026-11-28T09:00:00.000Z",
        userId: "bob",
        channelId: "C1",
        arrays: [],
        command: "help",
        args: {},
        decision: "allowed",
        outcome: "ok",
        durationMs: 0,
      }),
    );
  return out;
}

describe("the file export", () => {
  it("appends records as JSON lines, in order, to a file only its owner can read", async () => {
    const file = join(dir, "a.jsonl");
    const recs = chain(3);
    const ex = openAuditExport(auditExportSchema.parse({ file }), { logger: silentLogger() });
    ex.enqueue(recs[0] as ChainedRecord);
    await ex.flush();
    ex.enqueue(recs[1] as ChainedRecord);
    ex.enqueue(recs[2] as ChainedRecord);
    await ex.flush();
    await ex.close();
    expect(readFileSync(file, "utf8")).toBe(recs.map((r) => `${JSON.stringify(r)}\n`).join(""));
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("waits out a directory that is not there yet and then writes everything that waited", async () => {
    const sub = join(dir, "later");
    const file = join(sub, "b.jsonl");
    const asked: { ms: number; release: () => void }[] = [];
    let heard: (() => void) | undefined;
    const wait: Wait = (ms) =>
      new Promise((release) => {
        asked.push({ ms, release: () => release() });
        heard?.();
      });
    const firstWait = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const ex = openAuditExport(auditExportSchema.parse({ file }), { logger: silentLogger(), wait });
    const recs = chain(2);
    for (const r of recs) ex.enqueue(r);
    await firstWait;
    mkdirSync(sub);
    asked[0]?.release();
    await ex.flush();
    await ex.close();
    expect(asked.map((a) => a.ms)).toEqual([250]);
    expect(readFileSync(file, "utf8").trimEnd().split("\n")).toHaveLength(2);
  });
});
