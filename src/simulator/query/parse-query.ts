/**
 * Query-string parsing with the semantics Pure's clients rely on: purity_fb encodes with `quote_plus`, so `+` is a
 * space, and list parameters are csv whose commas are percent-encoded (`names=fs1%2Cfs+2`).
 */
import { badRequest, type SimQuery } from "../types.js";

const INTEGER = /^[+-]?\d+$/;

class ParsedQuery implements SimQuery {
  constructor(readonly raw: ReadonlyMap<string, string>) {}

  has(name: string): boolean {
    return this.raw.has(name);
  }

  string(name: string): string | undefined {
    return this.raw.get(name);
  }

  list(name: string): string[] | undefined {
    const value = this.raw.get(name);
    if (value === undefined) return undefined;
    // Empty elements ("a,,b", a trailing comma) carry no name; spaces inside a name are kept.
    return value.split(",").filter((part) => part !== "");
  }

  bool(name: string): boolean | undefined {
    const value = this.raw.get(name);
    if (value === undefined) return undefined;
    const lower = value.toLowerCase();
    if (lower === "true") return true;
    if (lower === "false") return false;
    throw badRequest(
      `Invalid value for query parameter '${name}': ${JSON.stringify(value)} is not a boolean (use true or false).`,
      name,
    );
  }

  int(name: string): number | undefined {
    const value = this.raw.get(name);
    if (value === undefined) return undefined;
    const parsed = INTEGER.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(parsed)) {
      throw badRequest(
        `Invalid value for query parameter '${name}': ${JSON.stringify(value)} is not an integer.`,
        name,
      );
    }
    return parsed;
  }
}

/** Parses a raw query string (a leading "?" is tolerated). Repeated keys: the last one wins. */
export function parseQuery(search: string): SimQuery {
  const params = new URLSearchParams(search.startsWith("?") ? search.slice(1) : search);
  const raw = new Map<string, string>();
  for (const [key, value] of params) raw.set(key, value);
  return new ParsedQuery(raw);
}
