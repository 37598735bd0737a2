/**
 * Diffs two V8 heap snapshots (`npm run load -- --heap-snapshots DIR` writes one after warm-up and one at the
 * end): live objects counted and sized by constructor (node type and name), largest growth first. A tool for
 * finding what grows under load, not part of any run.
 *   node --max-old-space-size=8192 dist/bench/load/heap-diff.js before.heapsnapshot after.heapsnapshot [top]
 */
import { readFileSync } from "node:fs";

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

type Tally = Map<string, { count: number; size: number }>;

function tally(path: string): Tally {
  const s = JSON.parse(readFileSync(path, "utf8")) as Snapshot;
  const fields = s.snapshot.meta.node_fields;
  const width = fields.length;
  const iType = fields.indexOf("type");
  const iName = fields.indexOf("name");
  const iSize = fields.indexOf("self_size");
  const types = s.snapshot.meta.node_types[0];
  const out: Tally = new Map();
  for (let i = 0; i < s.nodes.length; i += width) {
    const type = types[s.nodes[i + iType] ?? 0] ?? "?";
    const raw = s.strings[s.nodes[i + iName] ?? 0] ?? "?";
    // Strings and code are grouped by type alone: their "name" is their content.
    const name = type === "object" || type === "closure" || type === "native" ? raw.slice(0, 60) : "";
    const key = `${type}:${name}`;
    const t = out.get(key) ?? { count: 0, size: 0 };
    t.count++;
    t.size += s.nodes[i + iSize] ?? 0;
    out.set(key, t);
  }
  return out;
}

const [a, b, top] = process.argv.slice(2);
if (a === undefined || b === undefined) {
  console.error("usage: heap-diff.js before.heapsnapshot after.heapsnapshot [top]");
  process.exit(2);
}
const before = tally(a);
const after = tally(b);
const rows = [...new Set([...before.keys(), ...after.keys()])].map((k) => {
  const x = before.get(k) ?? { count: 0, size: 0 };
  const y = after.get(k) ?? { count: 0, size: 0 };
  return { k, dCount: y.count - x.count, dSize: y.size - x.size, size: y.size };
});
rows.sort((p, q) => q.dSize - p.dSize);
const total = (t: Tally) => [...t.values()].reduce((n, v) => n + v.size, 0) / 2 ** 20;
console.log(`heap ${total(before).toFixed(1)} MiB -> ${total(after).toFixed(1)} MiB`);
for (const r of rows.slice(0, Number(top ?? 40))) {
  console.log(
    `${(r.dSize / 2 ** 20).toFixed(2).padStart(8)} MiB  ${String(r.dCount).padStart(8)} objs  (${(r.size / 2 ** 20).toFixed(1)} MiB now)  ${r.k}`,
  );
}
