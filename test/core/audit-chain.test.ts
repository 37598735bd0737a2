/** The chain itself: one canonical form, one head per store, records placed in call order on every store. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AuditRecord, createAuditor, memoryAuditSink } from "../../src/core/audit/audit.js";
import {
  type ChainedRecord,
  canonicalJson,
  chainAfter,
  createAuditChain,
  GENESIS_HASH,
  recordHash,
} from "../../src/core/audit/audit-chain.js";
import { createMemoryStore } from "../../src/store/memory.js";
import { openSqliteStore } from "../../src/store/sqlite.js";
import type { Store } from "../../src/store/types.js";
import { memoryLogger } from "../fakes/memory-logger.js";

const rec = (id: string, extra: Partial<AuditRecord> = {}): AuditRecord => ({
  id,
  at: "2026-11-28T09:00:00.000Z",
  userId: "bob",
  channelId: "C1",
  arrays: ["lab-1"],
  command: "fs.resize",
  args: { name: "scratch", size: 1 },
  decision: "allowed",
  outcome: "ok",
  durationMs: 3,
  ...extra,
});

describe("canonicalJson", () => {
  it("sorts keys at every depth, keeps array order, drops undefined and writes no whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1, { z: null, y: "é" }], c: undefined } })).toBe(
      '{"a":{"d":[3,1,{"y":"é","z":null}]},"b":1}',
    );
    expect(canonicalJson({ B: 1, a: 2, _: 3 })).toBe('{"B":1,"_":3,"a":2}');
    const at = new Date(Date.UTC(2026, 10, 28));
    expect(canonicalJson({ at, n: [undefined, -0, 1e21] })).toBe(JSON.stringify({ at, n: [null, 0, 1e21] }));
  });

  it("gives a record read back from its JSON line the hash it was written with", () => {
    const placed = chainAfter(undefined, rec("r1", { displayName: undefined, approvedBy: ["dave"] }));
    const back = JSON.parse(JSON.stringify(placed)) as Record<string, unknown>;
    expect(recordHash(back)).toBe(placed.hash);
    expect(recordHash({ ...back, durationMs: 4 })).not.toBe(placed.hash);
  });
});

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const stores: [string, () => Store][] = [
  ["memory", () => createMemoryStore()],
  [
    "sqlite",
    () => {
      dir = mkdtempSync(join(tmpdir(), "audit-chain-"));
      return openSqliteStore({ dataDir: dir });
    },
  ],
];

describe.each(stores)("the chain on the %s store", (_name, open) => {
  it("numbers records from 1, links each to the one before and hands them on in that order", async () => {
    const store = open();
    const heard: ChainedRecord[] = [];
    const chain = createAuditChain(store, { onPlaced: (r) => heard.push(r) });
    const placed = await Promise.all(["a", "b", "c", "d"].map((id) => chain.append(rec(id))));
    expect(placed.map((r) => [r.id, r.seq])).toEqual([
      ["a", 1],
      ["b", 2],
      ["c", 3],
      ["d", 4],
    ]);
    expect(heard).toEqual(placed);
    expect(placed[0]?.prev_hash).toBe(GENESIS_HASH);
    for (let i = 1; i < placed.length; i++) expect(placed[i]?.prev_hash).toBe(placed[i - 1]?.hash);
    for (const r of placed) expect(recordHash(r)).toBe(r.hash);
    // A second chain on the same store (another replica, a restart) continues it.
    const next = await createAuditChain(store).append(rec("e"));
    expect(next.seq).toBe(5);
    expect(next.prev_hash).toBe(placed[3]?.hash);
    await store.close();
  });

  it("replaces whatever seq and hashes a record arrives with", async () => {
    const store = open();
    const forged = { ...rec("x"), seq: 99, prev_hash: "f".repeat(64), hash: "e".repeat(64) };
    const placed = await createAuditChain(store).append(forged);
    expect(placed.seq).toBe(1);
    expect(placed.prev_hash).toBe(GENESIS_HASH);
    expect(recordHash(placed)).toBe(placed.hash);
    await store.close();
  });
});

describe("the auditor with a chain", () => {
  it("logs, posts and files each record with its place in the chain", async () => {
    const log = memoryLogger();
    const sink = memoryAuditSink();
    const auditor = createAuditor(log.logger, sink, createAuditChain(createMemoryStore()));
    await auditor.record(rec("a"));
    await auditor.record(rec("b"));
    expect(sink.records.map((r) => r.seq)).toEqual([1, 2]);
    const logged = log.lines
      .filter((l) => l["component"] === "audit")
      .map((l) => l["audit"] as ChainedRecord);
    expect(logged.map((r) => [r.seq, r.hash])).toEqual(sink.records.map((r) => [r.seq, r.hash]));
  });

  it("still logs and posts a record the store cannot chain, and says so", async () => {
    const log = memoryLogger();
    const sink = memoryAuditSink();
    const store = createMemoryStore();
    await store.close();
    await createAuditor(log.logger, sink, createAuditChain(store)).record(rec("lost"));
    expect(sink.records).toHaveLength(1);
    expect(sink.records[0]?.seq).toBeUndefined();
    expect(log.lines.map((l) => l["msg"])).toContain("audit record could not be added to the audit chain");
  });
});
