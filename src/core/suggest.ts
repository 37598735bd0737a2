/** "Did you mean" support: Damerau-style edit distance over short words. */

export function editDistance(a: string, b: string): number {
  const la = a.length;
  const lb = b.length;
  if (la === 0) return lb;
  if (lb === 0) return la;
  // Two rows back are needed for transpositions ("lsit" → "list" costs 1).
  let prev2: number[] = new Array(lb + 1).fill(0);
  let prev: number[] = Array.from({ length: lb + 1 }, (_, j) => j);
  for (let i = 1; i <= la; i++) {
    const cur: number[] = [i];
    for (let j = 1; j <= lb; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, (prev2[j - 2] ?? 0) + 1);
      }
      cur.push(v);
    }
    prev2 = prev;
    prev = cur;
  }
  return prev[lb] ?? 0;
}

/** Candidates close to `input`, best first: within a third of the word length (at least 1, at most 3). */
export function suggest(input: string, candidates: Iterable<string>, max = 3): string[] {
  const word = input.toLowerCase();
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  const scored: { c: string; d: number }[] = [];
  for (const c of new Set(candidates)) {
    const lc = c.toLowerCase();
    const d = lc.startsWith(word) && word.length >= 2 ? 0.5 : editDistance(word, lc);
    if (d <= limit) scored.push({ c, d });
  }
  scored.sort((x, y) => x.d - y.d || x.c.localeCompare(y.c));
  return scored.slice(0, max).map((s) => s.c);
}

/** " Did you mean `x` or `y`?" or "". */
export function didYouMean(suggestions: readonly string[]): string {
  if (suggestions.length === 0) return "";
  const quoted = suggestions.map((s) => `\`${s}\``);
  const last = quoted.pop();
  return ` Did you mean ${quoted.length ? `${quoted.join(", ")} or ${last}` : last}?`;
}
