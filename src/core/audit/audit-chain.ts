/**
 * The audit trail as a hash chain: every record carries `seq` (1, 2, 3, …), `prev_hash` (the hash of record
 * seq-1) and `hash`, the SHA-256 of the record's canonical JSON without `hash`. Changing, removing or
 * reordering a record after the fact breaks the chain at that record (`audit:verify`, src/core/audit/audit-verify.ts).
 *
 * There is one chain per store, shared by every replica: its head `{seq, hash}` is one store entry, advanced with
 * the store's atomic read-modify-write (SQLite: an IMMEDIATE transaction; Redis: a compare-and-set script on the
 * entry's revision; memory: synchronous), so two replicas writing at once never give two records one seq.
 */
import { createHash } from "node:crypto";
import { InternalError } from "../../errors.js";
import type { Store } from "../../store/types.js";
import type { AuditRecord } from "./audit.js";

/** `prev_hash` of the first record of a chain. */
export const GENESIS_HASH = "0".repeat(64);
const NS = "audit-chain";
const HEAD = "head";

export interface ChainHead {
  seq: number;
  hash: string;
}

/** A record once it has its place in the chain. */
export type ChainedRecord = AuditRecord & { seq: number; prev_hash: string; hash: string };

/**
 * The one canonical form every hash is taken over: JSON with object keys sorted by UTF-16 code units (JS's
 * default sort), no whitespace, array order kept, keys whose value is undefined left out and numbers and strings
 * written as JSON.stringify writes them (toJSON included). A record read back from a JSON line therefore hashes as it did when it
 * was written.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  // As JSON.stringify does (a Date becomes its ISO string), so the hash is of what the export line holds.
  const toJSON = (value as { toJSON?: () => unknown }).toJSON;
  if (typeof toJSON === "function") return canonicalJson(toJSON.call(value));
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  const obj = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(obj).sort()) {
    const v = obj[key];
    if (v === undefined || typeof v === "function") continue;
    parts.push(`${JSON.stringify(key)}:${canonicalJson(v)}`);
  }
  return `{${parts.join(",")}}`;
}

/** SHA-256 (hex) of the record's canonical JSON, `hash` itself left out. */
export function recordHash(rec: object): string {
  const { hash: _hash, ...rest } = rec as Record<string, unknown>;
  return createHash("sha256").update(canonicalJson(rest), "utf8").digest("hex");
}

/** The record placed after `head` (or first, without one). */
export function chainAfter(head: ChainHead | undefined, rec: AuditRecord): ChainedRecord {
  const { seq: _s, prev_hash: _p, hash: _h, ...body } = rec as ChainedRecord;
  const placed = { ...body, seq: (head?.seq ?? 0) + 1, prev_hash: head?.hash ?? GENESIS_HASH };
  return { ...placed, hash: recordHash(placed) } as ChainedRecord;
}

export interface AuditChain {
  /**
   * Gives the record the next place in the store's chain. Calls from one process are placed one at a time, in
   * call order, and `onPlaced` hears each placed record before the next is placed, so an exporter fed from it
   * receives this process's records in chain order.
   */
  append(rec: AuditRecord): Promise<ChainedRecord>;
}

export function createAuditChain(
  store: Store,
  opts: { onPlaced?: (rec: ChainedRecord) => void } = {},
): AuditChain {
  let tail: Promise<unknown> = Promise.resolve();
  const place = async (rec: AuditRecord): Promise<ChainedRecord> => {
    let placed: ChainedRecord | undefined;
    const head = await store.update<ChainHead>(NS, HEAD, (cur) => {
      // Pure apart from remembering the last attempt: the store may call this again after a conflict, and the
      // attempt it stored is the last one made.
      placed = chainAfter(cur, rec);
      return { seq: placed.seq, hash: placed.hash };
    });
    if (!placed || head?.seq !== placed.seq || head.hash !== placed.hash)
      throw new InternalError(
        "AUDIT_CHAIN_MISMATCH",
        "the audit chain head does not match the record placed",
      );
    opts.onPlaced?.(placed);
    return placed;
  };
  return {
    append(rec) {
      const result = tail.then(() => place(rec));
      tail = result.catch(() => undefined);
      return result;
    },
  };
}
