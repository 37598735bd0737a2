/**
 * Puts the YAML line next to each problem's path ("channels.default_array (line 12): …"), so a long file's
 * problems can be found without counting. Problems without a path (or with one the file does not have, such as
 * a missing key) get the line of the nearest part of the path that is in the file.
 */
import { type Document, isMap, isScalar, type LineCounter } from "yaml";

const PATH = /^((?:[A-Za-z_][\w-]*)(?:\.[\w-]+|\[\d+\])*): /;

function segments(path: string): (string | number)[] {
  return [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) =>
    m[2] === undefined ? (m[1] ?? "") : Number(m[2]),
  );
}

function lineOf(doc: Document, counter: LineCounter, segs: readonly (string | number)[]): number | undefined {
  for (let n = segs.length; n > 0; n--) {
    const start = startOf(doc, segs.slice(0, n));
    if (start !== undefined) return counter.linePos(start).line;
  }
  return undefined;
}

/** Where the entry at `segs` begins: a mapping entry at its key (an unknown key's value may start lines later). */
function startOf(doc: Document, segs: readonly (string | number)[]): number | undefined {
  const parent = segs.length === 1 ? doc.contents : doc.getIn(segs.slice(0, -1), true);
  const last = segs[segs.length - 1];
  if (isMap(parent)) {
    const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === String(last));
    const range = isScalar(pair?.key) ? pair.key.range : undefined;
    if (range) return range[0];
  }
  const node = doc.getIn(segs, true) as { range?: readonly number[] } | undefined;
  return node && typeof node === "object" ? node.range?.[0] : undefined;
}

export function withLines(problems: readonly string[], doc: Document, counter: LineCounter): string[] {
  return problems.map((p) => {
    const m = PATH.exec(p);
    if (!m?.[1]) return p;
    const line = lineOf(doc, counter, segments(m[1]));
    return line === undefined ? p : `${m[1]} (line ${line}): ${p.slice(m[0].length)}`;
  });
}
