/**
 * Who holds the objects a heap-snapshot diff names (heap-diff.ts says what grew; this says why it is kept).
 * For each node of the later snapshot whose name matches, and which the earlier snapshot did not have (heap
 * object ids are stable within one process), it follows the retainer nearest the GC roots step by step and
 * groups the objects by that path: count, self size, and the path from the object up. A tool, not part of a run.
 *   node --max-old-space-size=8192 dist/bench/load/heap-retainers.js end.heapsnapshot NAME_REGEX [warm.heapsnapshot] [depth]
 * e.g. NAME_REGEX "^system / JSArrayBufferData$|^HTTPParser$".
 */
import { readFileSync } from "node:fs";

interface Snapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

function load(path: string): Snapshot {
  return JSON.parse(readFileSync(path, "utf8")) as Snapshot;
}

function ids(s: Snapshot): Set<number> {
  const nf = s.snapshot.meta.node_fields;
  const w = nf.length;
  const iId = nf.indexOf("id");
  const out = new Set<number>();
  for (let i = 0; i < s.nodes.length; i += w) out.add(s.nodes[i + iId] ?? 0);
  return out;
}

const [endPath, pattern, beforePath, depthArg] = process.argv.slice(2);
if (endPath === undefined || pattern === undefined) {
  console.error("usage: heap-retainers.js end.heapsnapshot NAME_REGEX [before.heapsnapshot] [depth]");
  process.exit(2);
}
const depth = Number(depthArg ?? 8);
const before = beforePath ? ids(load(beforePath)) : undefined;
const s = load(endPath);
const { node_fields: nf, node_types, edge_fields: ef, edge_types } = s.snapshot.meta;
const W = nf.length;
const EW = ef.length;
const [iType, iName, iId, iSize, iEdges] = ["type", "name", "id", "self_size", "edge_count"].map((f) =>
  nf.indexOf(f),
) as [number, number, number, number, number];
const [eType, eName, eTo] = ["type", "name_or_index", "to_node"].map((f) => ef.indexOf(f)) as [
  number,
  number,
  number,
];
const nodeTypes = node_types[0];
const edgeTypes = edge_types[0];
const n = s.nodes.length / W;
const at = (node: number, field: number) => s.nodes[node * W + field] ?? 0;
const nameOf = (node: number) => s.strings[at(node, iName)] ?? "?";
const label = (node: number) => `${nodeTypes[at(node, iType)]}:${nameOf(node).slice(0, 50)}`;

// Retainers of each node (reverse edges, weak ones left out), and each node's distance from the root.
const firstEdge = new Uint32Array(n + 1);
for (let i = 0; i < n; i++) firstEdge[i + 1] = (firstEdge[i] ?? 0) + at(i, iEdges);
const retainerCount = new Uint32Array(n + 1);
const weak = edgeTypes.indexOf("weak");
for (let e = 0; e < s.edges.length; e += EW) {
  if (s.edges[e + eType] === weak) continue;
  const to = (s.edges[e + eTo] ?? 0) / W;
  retainerCount[to + 1] = (retainerCount[to + 1] ?? 0) + 1;
}
for (let i = 0; i < n; i++) retainerCount[i + 1] = (retainerCount[i + 1] ?? 0) + (retainerCount[i] ?? 0);
const retFrom = new Uint32Array(retainerCount[n] ?? 0);
const retEdge = new Uint32Array(retainerCount[n] ?? 0);
const fill = retainerCount.slice(0, n);
for (let from = 0; from < n; from++) {
  for (let k = firstEdge[from] ?? 0; k < (firstEdge[from + 1] ?? 0); k++) {
    const e = k * EW;
    if (s.edges[e + eType] === weak) continue;
    const to = (s.edges[e + eTo] ?? 0) / W;
    const slot = fill[to] ?? 0;
    retFrom[slot] = from;
    retEdge[slot] = e;
    fill[to] = slot + 1;
  }
}
const dist = new Int32Array(n).fill(-1);
dist[0] = 0;
const queue = new Uint32Array(n);
let qh = 0;
let qt = 1;
while (qh < qt) {
  const from = queue[qh++] ?? 0;
  for (let k = firstEdge[from] ?? 0; k < (firstEdge[from + 1] ?? 0); k++) {
    const e = k * EW;
    if (s.edges[e + eType] === weak) continue;
    const to = (s.edges[e + eTo] ?? 0) / W;
    if (dist[to] === -1) {
      dist[to] = (dist[from] ?? 0) + 1;
      queue[qt++] = to;
    }
  }
}
const edgeName = (e: number) => {
  const t = edgeTypes[s.edges[e + eType] ?? 0] ?? "?";
  const v = s.edges[e + eName] ?? 0;
  return t === "element" || t === "hidden" ? `[${v}]` : (s.strings[v] ?? "?").slice(0, 30);
};

const re = new RegExp(pattern);
const groups = new Map<string, { count: number; size: number }>();
let matched = 0;
for (let i = 0; i < n; i++) {
  if (!re.test(nameOf(i))) continue;
  if (before?.has(at(i, iId))) continue;
  matched++;
  const path: string[] = [label(i)];
  let cur = i;
  for (let d = 0; d < depth; d++) {
    // The retainer nearest the roots: the path the object is kept alive by.
    let best = -1;
    let bestEdge = 0;
    for (let r = retainerCount[cur] ?? 0; r < (retainerCount[cur + 1] ?? 0); r++) {
      const from = retFrom[r] ?? 0;
      const df = dist[from] ?? -1;
      if (df >= 0 && (best === -1 || df < (dist[best] ?? 0))) {
        best = from;
        bestEdge = retEdge[r] ?? 0;
      }
    }
    if (best <= 0) break;
    path.push(`-${edgeName(bestEdge)}-> ${label(best)}`);
    cur = best;
  }
  const key = path.join("  ");
  const g = groups.get(key) ?? { count: 0, size: 0 };
  g.count++;
  g.size += at(i, iSize);
  groups.set(key, g);
}
console.log(`${matched} nodes match /${pattern}/${before ? " and are new since the earlier snapshot" : ""}`);
for (const [key, g] of [...groups].sort((a, b) => b[1].size - a[1].size).slice(0, 25)) {
  console.log(`${String(g.count).padStart(6)} × ${(g.size / 2 ** 20).toFixed(2).padStart(7)} MiB  ${key}`);
}
