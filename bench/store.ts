/**
 * What the stores cost per approval claim and per alert record: the in-memory store (the floor), the embedded
 * SQLite file (WAL, synchronous FULL: one fsync per commit) and Redis on loopback (append-only file fsynced every
 * second, the usual production setting, and on every write, the setting that matches SQLite's promise).
 *
 * An approval claim is `PendingStore.claim` (a compare-and-set on the record); an alert record is the batch a poll
 * commits for a new alert (alert record, card, outbox entry, family state). Each operation is timed on its own;
 * rounds alternate the stores so machine load falls on all of them alike. Reported: median and the p10–p90 spread.
 * Writes bench/results/store.json: per store, the median of each round, with the memory store as the baseline.
 * Run: npm run bench:store [-- --ops 2000 --rounds 3]   (needs redis-server on PATH, or REDIS_SERVER)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { PendingRecord } from "../src/core/approvals/pending-store.js";
import { createDurablePendingStore } from "../src/core/approvals/pending-store-durable.js";
import { createMemoryStore } from "../src/store/memory.js";
import { openRedisStore } from "../src/store/redis.js";
import { openSqliteStore } from "../src/store/sqlite.js";
import type { Store } from "../src/store/types.js";
import { startRedis } from "./redis/redis-server.js";
import { type Figure, median, writeResult } from "./report/result.js";

const out = (s: string) => process.stdout.write(`${s}\n`);
const { values } = parseArgs({
  options: { ops: { type: "string", default: "2000" }, rounds: { type: "string", default: "3" } },
});
const OPS = Number(values.ops);
const ROUNDS = Number(values.rounds);

/** A Redis of its own, appending every write to its log and syncing it as `fsync` says. */
const redisWith = (fsync: "everysec" | "always") =>
  startRedis({ persistence: true, args: ["--appendfsync", fsync] });

function pendingRecord(id: string, now: number): PendingRecord {
  return {
    id,
    kind: "request",
    status: "pending",
    commandId: "fs.eradicate",
    args: { name: `fs-${id}`, array: "lab-1" },
    commandText: `fs eradicate fs-${id}`,
    requester: { userId: "UBOB", displayName: "bob" },
    channelId: "C1",
    array: "lab-1",
    requestId: `trig-${id}`,
    destructiveClass: "eradicate",
    policy: "approve",
    approvalsRequired: 1,
    approverRole: "operator",
    approvals: [],
    fingerprint: "f".repeat(64),
    state: { used: 123456789, destroyed: true },
    display: {
      title: `Approval needed: eradicate file system fs-${id} on lab-1`,
      summary: "Eradicates fs-1 for good: its data cannot be recovered afterwards.",
      facts: [{ label: "Holds", markup: "1.2 TiB" }],
      warnings: ["Eradication cannot be undone."],
      requests: [`DELETE /api/1.12/file-systems?names=fs-${id}`],
    },
    typeToConfirm: `fs-${id}`,
    createdAt: now,
    expiresAt: now + 900_000,
    updatedAt: now,
    messages: [{ channelId: "C1", ts: "1700000000.000100" }],
  };
}

function alertBatch(i: number, now: number) {
  const key = `lab-1/alert-${i}`;
  const cardId = `a/CALERTS01/lab-1/alert-${i}`;
  return [
    {
      op: "put" as const,
      ns: "alerts.alert",
      key,
      value: {
        array: "lab-1",
        name: `alert-${i}`,
        code: 1000 + (i % 50),
        severity: "warning",
        state: "open",
        component: `CH1.FB${i % 10}`,
        subject: "Blade is unhealthy",
        created: now,
        updated: now,
        cardIds: [cardId],
      },
    },
    {
      op: "put" as const,
      ns: "alerts.card",
      key: cardId,
      value: {
        id: cardId,
        kind: "alert",
        array: "lab-1",
        channel: "CALERTS01",
        members: [key],
        version: 1,
        syncedVersion: 0,
        thread: [],
        nextLineId: 1,
        reopenings: [],
        createdAt: now,
      },
    },
    { op: "put" as const, ns: "alerts.outbox", key: cardId, value: { due: now } },
    {
      op: "put" as const,
      ns: "alerts.family",
      key: `CALERTS01/lab-1:${1000 + (i % 50)}`,
      value: { cardId, lastActivity: now, open: [key] },
    },
  ];
}

const samples = new Map<string, { claim: number[]; record: number[] }>();
/** Per store, the median of each round: the report's rounds. */
const roundMedians = new Map<string, { claim: number[]; record: number[] }>();

async function measure(name: string, store: Store, round: number): Promise<void> {
  const all = samples.get(name) ?? { claim: [], record: [] };
  samples.set(name, all);
  const s = { claim: [] as number[], record: [] as number[] };
  const pending = createDurablePendingStore(store);
  const now = Date.now();
  const ids = Array.from({ length: OPS }, (_, i) => `r${round}-${i}`);
  for (const id of ids) await pending.create(pendingRecord(id, now));
  for (const id of ids) {
    const t = process.hrtime.bigint();
    const won = await pending.claim(id, "pending");
    s.claim.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (!won) throw new Error(`claim of ${id} lost on an uncontended store`);
  }
  for (let i = 0; i < OPS; i++) {
    const batch = alertBatch(round * OPS + i, now);
    const t = process.hrtime.bigint();
    await store.write(batch);
    s.record.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  all.claim.push(...s.claim);
  all.record.push(...s.record);
  const m = roundMedians.get(name) ?? { claim: [], record: [] };
  roundMedians.set(name, m);
  m.claim.push(median(s.claim));
  m.record.push(median(s.record));
}

function storeFigures(names: readonly string[]): Figure[] {
  const floor = roundMedians.get("memory");
  return names
    .filter((n) => n !== "memory")
    .flatMap((name) => {
      const m = roundMedians.get(name);
      if (!m || !floor) return [];
      const headline = !name.includes("always");
      return [
        {
          what: `store: approval claim, ${name}`,
          unit: "ms" as const,
          rounds: m.claim,
          baseline: { what: "the memory store", rounds: floor.claim },
          headline,
        },
        {
          what: `store: alert record (4-entry batch), ${name}`,
          unit: "ms" as const,
          rounds: m.record,
          baseline: { what: "the memory store", rounds: floor.record },
          headline,
        },
      ];
    });
}

const q = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
};
const fmt = (xs: number[]) =>
  `${q(xs, 0.5).toFixed(3)} ms (${q(xs, 0.1).toFixed(3)}–${q(xs, 0.9).toFixed(3)})`;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bench-store-"));
  const redisSec = await redisWith("everysec");
  const redisAlways = await redisWith("always");
  const stores: [string, Store][] = [
    ["memory", createMemoryStore()],
    ["sqlite (WAL, synchronous full)", openSqliteStore({ dataDir: dir })],
    ["redis (AOF, fsync every second)", openRedisStore({ host: "127.0.0.1", port: redisSec.port })],
    ["redis (AOF, fsync always)", openRedisStore({ host: "127.0.0.1", port: redisAlways.port })],
  ];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, store] of stores) await measure(name, store, round);
    }
    out(`store cost per operation, ${OPS} operations × ${ROUNDS} rounds each; median (p10–p90)`);
    out("| store | approval claim | alert record (4-entry batch) |");
    out("|---|---|---|");
    for (const [name] of stores) {
      const s = samples.get(name);
      if (s) out(`| ${name} | ${fmt(s.claim)} | ${fmt(s.record)} |`);
    }
    writeResult({
      name: "store",
      title: "Store (`bench/store.ts`)",
      command: "npm run bench:store",
      figures: storeFigures(stores.map(([n]) => n)),
      notes: [
        `${OPS} operations per store per round, ${ROUNDS} rounds alternating the stores; each operation timed on its own; a round's figure is its median. Redis on loopback (redis-server from the system), SQLite in a temporary directory on this machine's disk.`,
      ],
    });
  } finally {
    for (const [, store] of stores) await store.close();
    await redisSec.close();
    await redisAlways.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
