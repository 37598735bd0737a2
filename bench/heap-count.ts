/**
 * What holds a heap, by constructor: reads V8 heap snapshots (v8.writeHeapSnapshot) and prints the node kinds
 * with the most self size, and, given two snapshots, the difference (the second minus the first), so a per-array
 * cost can be traced to the objects that make it (bench:fleet-idle --snapshot writes a pair).
 *   node dist/bench/heap-count.js <a.heapsnapshot> [<b.heapsnapshot>] [--top 25]
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

type Counts = Map<string, { count: number; bytes: number }>;

function countsOf(path: string): Counts {
  const snap = JSON.parse(readFileSync(path, "utf8")) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const [type, name, size] = ["type", "name", "self_size"].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const counts: Counts = new Map();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const kind = types[snap.nodes[i + type] as number] ?? "?";
    // Strings and code are counted by kind; objects and closures by their constructor or function name.
    const label =
      kind === "object" || kind === "closure" || kind === "native"
        ? `${kind} ${snap.strings[snap.nodes[i + name] as number]}`
        : `(${kind})`;
    const c = counts.get(label) ?? { count: 0, bytes: 0 };
    c.count++;
    c.bytes += snap.nodes[i + size] as number;
    counts.set(label, c);
  }
  return counts;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: "string", default: "25" } },
});
const [first, second] = positionals;
if (first === undefined) throw new Error("usage: heap-count <a.heapsnapshot> [<b.heapsnapshot>] [--top N]");
const a = countsOf(first);
const b = second === undefined ? undefined : countsOf(second);
const rows = [...new Set([...a.keys(), ...(b?.keys() ?? [])])].map((label) => {
  const none = { count: 0, bytes: 0 };
  const x = a.get(label) ?? none;
  if (b === undefined) return { label, ...x };
  const y = b.get(label) ?? none;
  return { label, count: y.count - x.count, bytes: y.bytes - x.bytes };
});
rows.sort((p, q) => Math.abs(q.bytes) - Math.abs(p.bytes));
for (const r of rows.slice(0, Number(values.top))) {
  process.stdout.write(
    `${(r.bytes / 1024).toFixed(1).padStart(10)} KiB ${String(r.count).padStart(8)}  ${r.label}\n`,
  );
}
