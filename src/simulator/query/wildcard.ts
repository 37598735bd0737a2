/**
 * `*` wildcard matching in linear-ish time. A regex built from user text could backtrack badly on patterns such
 * as `'*a*a*a*a*b'`; greedy leftmost matching of the literal pieces is exact for a `*`-only glob.
 */
export function matchesWildcard(text: string, parts: readonly string[]): boolean {
  if (parts.length === 1) return text === parts[0];
  const first = parts[0] ?? "";
  const last = parts[parts.length - 1] ?? "";
  if (text.length < first.length + last.length) return false;
  if (!text.startsWith(first) || !text.endsWith(last)) return false;
  const end = text.length - last.length;
  let pos = first.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i] ?? "";
    const found = text.indexOf(part, pos);
    if (found < 0 || found + part.length > end) return false;
    pos = found + part.length;
  }
  return true;
}
