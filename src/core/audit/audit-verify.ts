/**
 * Checks exported audit records (JSON lines, src/audit-export) against their hash chain and names the first
 * record, by seq, that was changed, removed or reordered. Pure: `npm run audit:verify` (tools/audit-verify.ts)
 * reads the files.
 *
 * What a chain can and cannot show: a record edited in place fails its own hash; one edited and re-hashed breaks
 * the next record's prev_hash; a removed or moved record leaves a gap in seq where it was. Records cut from the
 * start of a file look like a file rotated mid-chain (which is fine), so the result says where the file starts;
 * records cut from its end leave nothing behind to check against.
 */
import { GENESIS_HASH, recordHash } from "./audit-chain.js";

export type Tamper = "changed" | "removed" | "reordered" | "duplicated";

export type VerifyResult =
  | { ok: true; count: number; firstSeq: number; lastSeq: number }
  | { ok: false; seq: number; kind: Tamper; detail: string };

interface Line {
  file: string;
  line: number;
  seq: number;
  prev: string;
  hash: string;
  rec: Record<string, unknown>;
}

const HEX64 = /^[0-9a-f]{64}$/;

type Parsed = { ok: true; lines: Line[] } | Extract<VerifyResult, { ok: false }>;

function parse(file: string, text: string): Parsed {
  const lines: Line[] = [];
  const rows = text.split("\n");
  for (let i = 0; i < rows.length; i++) {
    const raw = rows[i]?.trim() ?? "";
    if (raw === "") continue;
    const at = `${file}:${i + 1}`;
    let rec: unknown;
    try {
      rec = JSON.parse(raw);
    } catch {
      rec = undefined;
    }
    const r = rec as Record<string, unknown> | undefined;
    const seq = r?.seq;
    if (!r || typeof r !== "object" || typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 1) {
      // A line that is no record at all: the record that should be there was changed past recognition.
      const after = lines.at(-1)?.seq ?? 0;
      return {
        ok: false,
        seq: after + 1,
        kind: "changed",
        detail: `${at} is not an audit record with a seq`,
      };
    }
    lines.push({
      file,
      line: i + 1,
      seq,
      prev: typeof r.prev_hash === "string" ? r.prev_hash : "",
      hash: typeof r.hash === "string" ? r.hash : "",
      rec: r,
    });
  }
  return { ok: true, lines };
}

/** The first place a file's own order goes backwards: records within one exporter's file only ever increase. */
function orderProblem(lines: readonly Line[]): Extract<VerifyResult, { ok: false }> | undefined {
  for (let i = 1; i < lines.length; i++) {
    const a = lines[i - 1] as Line;
    const b = lines[i] as Line;
    if (b.seq > a.seq) continue;
    if (b.seq === a.seq)
      return {
        ok: false,
        seq: b.seq,
        kind: "duplicated",
        detail: `${b.file}:${b.line} repeats seq ${b.seq}`,
      };
    return {
      ok: false,
      seq: b.seq,
      kind: "reordered",
      detail: `${b.file}:${b.line} (seq ${b.seq}) comes after seq ${a.seq} at line ${a.line}`,
    };
  }
  return undefined;
}

/**
 * Verifies one file, or the files of several replicas' exporters together (each holds only what its replica
 * wrote, so alone it has gaps where the others' records go): each file must run forward, then all of them merged
 * by seq must make one unbroken chain.
 */
export function verifyAuditFiles(files: readonly { name: string; text: string }[]): VerifyResult {
  const all: Line[] = [];
  for (const f of files) {
    const p = parse(f.name, f.text);
    if (!p.ok) return p;
    if (files.length > 1) {
      const problem = orderProblem(p.lines);
      if (problem) return problem;
    }
    all.push(...p.lines);
  }
  if (files.length > 1) all.sort((a, b) => a.seq - b.seq);
  return walk(all);
}

function walk(lines: readonly Line[]): VerifyResult {
  const first = lines[0];
  if (!first) return { ok: false, seq: 1, kind: "removed", detail: "no audit records at all" };
  for (let i = 0; i < lines.length; i++) {
    const cur = lines[i] as Line;
    const before = lines[i - 1];
    const expected = before ? before.seq + 1 : cur.seq;
    if (cur.seq !== expected) return gap(lines, i, expected);
    if (!HEX64.test(cur.hash) || recordHash(cur.rec) !== cur.hash)
      return { ok: false, seq: cur.seq, kind: "changed", detail: `${where(cur)} does not match its hash` };
    if (before && cur.prev !== before.hash)
      return {
        ok: false,
        seq: before.seq,
        kind: "changed",
        detail: `its hash is not the prev_hash that seq ${cur.seq} (${where(cur)}) carries: seq ${before.seq} was rewritten and re-hashed, or the link in seq ${cur.seq} was`,
      };
    if (!before && cur.seq === 1 && cur.prev !== GENESIS_HASH)
      return {
        ok: false,
        seq: 1,
        kind: "changed",
        detail: `${where(cur)} is seq 1 but does not start a chain`,
      };
  }
  return { ok: true, count: lines.length, firstSeq: first.seq, lastSeq: (lines.at(-1) as Line).seq };
}

/** Seq `expected` is not where it should be: later in the file (moved) or nowhere (removed). */
function gap(lines: readonly Line[], i: number, expected: number): VerifyResult {
  const cur = lines[i] as Line;
  if (cur.seq < expected) {
    const twin = lines.slice(0, i).find((l) => l.seq === cur.seq);
    return twin
      ? { ok: false, seq: cur.seq, kind: "duplicated", detail: `${where(cur)} repeats ${where(twin)}` }
      : {
          ok: false,
          seq: cur.seq,
          kind: "reordered",
          detail: `${where(cur)} comes after seq ${expected - 1}`,
        };
  }
  const later = lines.slice(i + 1).find((l) => l.seq === expected);
  if (later)
    return {
      ok: false,
      seq: expected,
      kind: "reordered",
      detail: `it is at ${where(later)}, after seq ${cur.seq} (${where(cur)})`,
    };
  const missing = cur.seq - expected === 1 ? `seq ${expected}` : `seq ${expected} to ${cur.seq - 1}`;
  return {
    ok: false,
    seq: expected,
    kind: "removed",
    detail: `${missing} missing: seq ${expected - 1} is followed by seq ${cur.seq} (${where(cur)})`,
  };
}

function where(l: Line): string {
  return `${l.file}:${l.line}`;
}

/** The line `audit:verify` prints. */
export function describeResult(r: VerifyResult): string {
  if (r.ok) {
    const from =
      r.firstSeq === 1 ? "" : ` (starts mid-chain at seq ${r.firstSeq}: earlier records are elsewhere)`;
    return `ok: ${r.count} records, chain intact, seq ${r.firstSeq} to ${r.lastSeq}${from}`;
  }
  return `seq ${r.seq} ${r.kind}: ${r.detail}`;
}
