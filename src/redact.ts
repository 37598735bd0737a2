/**
 * The one redaction. Every output of the bot (messages and cards, dry runs, the raw JSON view, audit records,
 * log lines, the pending store, metrics labels, CSV) passes parsed values through `redact`, which decides by
 * key, from the list in src/rest-spec/secrets.ts, whatever the key's case or spelling: a secret's value becomes
 * "[redacted]", credentials inside a URL become `user:***@host`. Nothing here matches secrets in raw text;
 * the one text rule is a URL's user-information part, which is the same wherever a URL appears.
 */
import { isSecretKey, isSecretObjectKey, isUrlKey } from "./rest-spec/secrets.js";

export const REDACTED = "[redacted]";

/**
 * What a card shows in place of a secret typed later in a private dialog: not a secret, so it stays (the card names
 * the placeholder the run-time value fills).
 */
export const SECRET_PLACEHOLDER = "(typed in a private dialog)";

/** `scheme://user:password@` or `scheme://token@` anywhere in a text. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@"'<>]+)@/gi;
/** A URL-valued field typed without its scheme: `user:password@proxy:3128`. */
const BARE_CREDENTIALS = /^([^\s/?#@:"'<>]+):[^\s/?#@"'<>]+@/;

function maskUserinfo(userinfo: string): string {
  const colon = userinfo.indexOf(":");
  return colon < 0 ? "***" : `${userinfo.slice(0, colon)}:***`;
}

/** `http://user:pw@proxy:3128` → `http://user:***@proxy:3128`; `https://tok@host` → `https://***@host`. */
export function redactUrlCredentials(text: string): string {
  return text.includes("@")
    ? text.replace(URL_CREDENTIALS, (_all, scheme: string, info: string) => `${scheme}${maskUserinfo(info)}@`)
    : text;
}

/** The value of a URL-valued field: credentials masked with or without a scheme. */
export function redactUrlValue(text: string): string {
  return text.includes("@") ? redactUrlCredentials(text).replace(BARE_CREDENTIALS, "$1:***@") : text;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object") return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

const MAX_DEPTH = 64;

/** What `trim()` then a `{` or `[` would find (`\s` is the set of blanks trim removes). */
const JSON_START = /^\s*[[{]/;

/**
 * A string holding a JSON object or list (a raw API body as typed, kept in the arguments) is parsed and redacted
 * like any value; undefined when it is not JSON or holds nothing to redact, so other text keeps its form.
 */
function jsonText(v: string, seen: WeakSet<object>, depth: number): string | undefined {
  // Tested before trimming: nearly every string is not JSON, and a copy of each was a fair part of a walk.
  if (!JSON_START.test(v)) return undefined;
  const t = v.trim();
  let parsed: unknown;
  try {
    parsed = JSON.parse(t);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== "object") return undefined;
  const out = JSON.stringify(walk(parsed, undefined, false, seen, depth + 1));
  return out === JSON.stringify(parsed) ? undefined : out;
}

function walk(
  v: unknown,
  key: string | undefined,
  inSecret: boolean,
  seen: WeakSet<object>,
  depth: number,
): unknown {
  if (v === null || v === undefined) return v;
  if (typeof v === "string") {
    if (inSecret) return v === SECRET_PLACEHOLDER || v === REDACTED ? v : REDACTED;
    const json = jsonText(v, seen, depth);
    if (json !== undefined) return json;
    return key !== undefined && isUrlKey(key) ? redactUrlValue(v) : redactUrlCredentials(v);
  }
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint")
    return inSecret ? REDACTED : v;
  if (Array.isArray(v)) {
    if (seen.has(v) || depth > MAX_DEPTH) return REDACTED;
    seen.add(v);
    const out = v.map((x) => walk(x, key, inSecret, seen, depth + 1));
    seen.delete(v);
    return out;
  }
  if (!isPlainObject(v)) return v;
  if (seen.has(v) || depth > MAX_DEPTH) return REDACTED;
  seen.add(v);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const x = v[k];
    const secret = isSecretKey(k) && !(isPlainObject(x) && isSecretObjectKey(k));
    out[k] = walk(x, k, inSecret || secret, seen, depth + 1);
  }
  seen.delete(v);
  return out;
}

/**
 * `value` with every secret replaced: values under secret keys (at any depth, in any case or spelling; every leaf
 * of an object under one, except a model-typed secret such as an admin's `api_token`, walked by its own fields),
 * and credentials inside URLs. Plain objects and arrays
 * are copied; other objects (errors, buffers, dates) are returned as they are, for their own serialisers.
 */
export function redact<T>(value: T): T {
  return walk(value, undefined, false, new WeakSet(), 0) as T;
}

/** Whether `value` holds a secret field anywhere; its path ("body.bind_password") or undefined. */
export function findSecretKey(value: unknown, at = ""): string | undefined {
  if (Array.isArray(value)) {
    for (const [i, x] of value.entries()) {
      const inner = findSecretKey(x, `${at}[${i}]`);
      if (inner) return inner;
    }
    return undefined;
  }
  if (!value || typeof value !== "object") return undefined;
  for (const [k, x] of Object.entries(value as Record<string, unknown>)) {
    const path = at ? `${at}.${k}` : k;
    if (isSecretKey(k)) return path;
    const inner = findSecretKey(x, path);
    if (inner) return inner;
  }
  return undefined;
}
