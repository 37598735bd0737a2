/**
 * Two replicas, one chain: two pipelines (each over its own simulator) whose audit chains share one real
 * redis-server through connections of their own, writing at once. Their exports, verified together, make one
 * unbroken chain: no seq given twice, none skipped, every link intact.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAuditExport } from "../../src/audit-export/index.js";
import { auditExportSchema } from "../../src/config/audit-export.js";
import type { AuditRecord } from "../../src/core/audit/audit.js";
import { type ChainedRecord, createAuditChain } from "../../src/core/audit/audit-chain.js";
import { silentLogger } from "../../src/logger.js";
import { openRedisStore } from "../../src/store/redis.js";
import { auditVerifyMain } from "../../tools/audit-verify.js";
import { type Harness, startHarness } from "../core/harness.js";
import { type RedisServer, startRedis } from "../store/redis-server.js";

let redis: RedisServer;
let dir: string;
beforeAll(async () => {
  redis = await startRedis();
  dir = mkdtempSync(join(tmpdir(), "audit-replicas-"));
});
afterAll(async () => {
  await redis.close();
  rmSync(dir, { recursive: true, force: true });
});

function verify(...files: string[]): { code: number; out: string } {
  const out: string[] = [];
  const code = auditVerifyMain(files, { out: (l) => out.push(l), err: (l) => out.push(l) });
  return { code, out: out.join("\n") };
}

const base: AuditRecord = {
  id: "r",
  at: "2026-11-28T09:00:00.000Z",
  userId: "bob",
  channelId: "C1",
  arrays: ["lab-1"],
  command: "fs.list",
  args: {},
  decision: "allowed",
  outcome: "ok",
  durationMs: 0,
};

describe("the audit chain on a store shared by replicas", () => {
  it("gives every record of two replicas appending at once its own seq, in one chain", async () => {
    const prefix = "race:";
    const stores = [0, 1].map(() =>
      openRedisStore({ host: "127.0.0.1", port: redis.port, keyPrefix: prefix }),
    );
    const chains = stores.map((s) => createAuditChain(s));
    // In rounds, both replicas at once each time: every round is a race for the same head.
    const placed: ChainedRecord[] = [];
    for (let i = 0; i < 40; i++)
      placed.push(
        ...(await Promise.all(chains.map((c, r) => c.append({ ...base, id: `replica${r}-${i}` })))),
      );
    const bySeq = new Map<number, ChainedRecord>(placed.map((p) => [p.seq, p]));
    expect([...bySeq.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
    for (let seq = 2; seq <= 80; seq++) expect(bySeq.get(seq)?.prev_hash).toBe(bySeq.get(seq - 1)?.hash);
    for (const s of stores) await s.close();
  });

  it("exports, from two pipelines running commands at once, files that verify together as one chain", async () => {
    const replicas: { h: Harness; file: string; close: () => Promise<void>; flush: () => Promise<void> }[] =
      [];
    for (const name of ["a", "b"]) {
      const store = openRedisStore({ host: "127.0.0.1", port: redis.port, keyPrefix: "pipelines:" });
      const file = join(dir, `replica-${name}.jsonl`);
      const ex = openAuditExport(auditExportSchema.parse({ file }), { logger: silentLogger() });
      const chain = createAuditChain(store, { onPlaced: (r) => ex.enqueue(r) });
      const h = await startHarness({ arrays: [{ name: "lab-1" }], auditChain: chain });
      replicas.push({
        h,
        file,
        flush: () => ex.flush(),
        close: async () => {
          await h.close();
          await ex.close();
          await store.close();
        },
      });
    }
    try {
      const commands = ["fs list", "fs resize scratch 4T", "array show", "frobnicate", "fs list --limit 2"];
      await Promise.all(
        replicas.flatMap(({ h }) =>
          commands.flatMap((c) => [h.run("bob", c), h.run("carol", c), h.run("alice", c)]),
        ),
      );
      for (const r of replicas) await r.flush();
      const total = replicas.reduce((n, r) => n + r.h.audits.length, 0);
      expect(total).toBeGreaterThanOrEqual(30);
      for (const r of replicas) {
        const seqs = readFileSync(r.file, "utf8")
          .trimEnd()
          .split("\n")
          .map((l) => (JSON.parse(l) as ChainedRecord).seq);
        // Each replica's file holds its own records, in chain order.
        expect(seqs).toEqual(r.h.audits.map((a) => a.seq));
        expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
      }
      expect(verify(...replicas.map((r) => r.file))).toEqual({
        code: 0,
        out: `ok: ${total} records, chain intact, seq 1 to ${total}`,
      });
    } finally {
      for (const r of replicas) await r.close();
    }
  });
});
