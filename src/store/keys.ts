/** Keys are plain strings; these helpers keep composite keys unambiguous and prefix-listable. */

/** Joins parts with "/" after escaping "/" and "%" inside each part, so "a/b"+"c" never equals "a"+"b/c". */
export function joinKey(...parts: readonly (string | number)[]): string {
  return parts.map((p) => String(p).replace(/%/g, "%25").replace(/\//g, "%2F")).join("/");
}

/** Prefix that lists every key whose first parts are `parts`. */
export function keyPrefix(...parts: readonly (string | number)[]): string {
  return joinKey(...parts) + "/";
}

/**
 * A string greater than every string starting with `prefix`, for range scans in UTF-8 byte order (SQLite's BINARY
 * collation): U+10FFFF is the largest code point, so nothing valid sorts after it.
 */
export function prefixUpperBound(prefix: string): string {
  return prefix + "\u{10FFFF}";
}
