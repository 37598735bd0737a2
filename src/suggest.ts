/** "Did you mean" support over short words, with the project's one edit distance (src/edit-distance.ts). */
import { editDistance, suggestionLimit } from "./edit-distance.js";

export { editDistance } from "./edit-distance.js";

/** Candidates close to `input`, best first: within a third of the word length (at least 1, at most 3). */
export function suggest(input: string, candidates: Iterable<string>, max = 3): string[] {
  const word = input.toLowerCase();
  const limit = suggestionLimit(word);
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
