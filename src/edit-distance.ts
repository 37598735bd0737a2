/**
 * The one edit distance of the project (did-you-mean for commands, options and array names): Damerau-style, so
 * swapping two neighbouring letters ("lsit" → "list") costs 1, and one rule for how far a suggestion may be.
 */

export function editDistance(a: string, b: string): number {
  const la = a.length;
  const lb = b.length;
  if (la === 0) return lb;
  if (lb === 0) return la;
  // Two rows back are needed for transpositions.
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

/** How far a suggestion may be from what was typed: a third of the word's length, at least 1, at most 3. */
export function suggestionLimit(word: string): number {
  return Math.min(3, Math.max(1, Math.floor(word.length / 3)));
}
