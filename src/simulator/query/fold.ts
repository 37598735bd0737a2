/**
 * Case folding for filters and sorting: the array compares names case-insensitively. String#toLowerCase is
 * context-sensitive for one letter, Greek capital sigma (Σ lowers to ς at the end of a word and to σ elsewhere),
 * so "xΣ y" would not contain "Σ " once both were lowered. Mapping Σ to σ first makes the fold the same wherever
 * a piece of text stands (the filter fuzz found it); the check keeps the common case at one native call.
 */
export function fold(s: string): string {
  return s.includes("Σ") ? s.replaceAll("Σ", "σ").toLowerCase() : s.toLowerCase();
}
