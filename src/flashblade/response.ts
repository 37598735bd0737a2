/**
 * Reading response bodies: JSON that may not be JSON, error lists under `errors` or `error`, the list
 * envelope, and item validation that names the array, path and field on a mismatch.
 */
import type { z } from "zod";
import { contract } from "./errors.js";
import { type ErrorEntry, errorBodySchema, listEnvelopeSchema } from "./schemas.js";
import type { Page } from "./types.js";

const NOT_JSON = Symbol("not json");

export function parseJson(text: string): unknown | typeof NOT_JSON {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

/** The array's error messages; tolerant of `error` vs `errors`, a single object, a string, or no JSON. */
export function errorEntries(text: string): ErrorEntry[] {
  const body = parseJson(text);
  if (body === NOT_JSON || body === undefined) {
    const snippet = text.trim().replace(/\s+/g, " ").slice(0, 200);
    return snippet ? [{ message: snippet, context: undefined, code: undefined }] : [];
  }
  const parsed = errorBodySchema.safeParse(body);
  if (!parsed.success) return [];
  const { errors, error } = parsed.data;
  if (errors && errors.length > 0) return errors;
  if (typeof error === "string") return [{ message: error, context: undefined, code: undefined }];
  if (Array.isArray(error)) return error;
  return error ? [error] : [];
}

function fieldPath(base: string, path: readonly PropertyKey[]): string {
  let out = base;
  for (const seg of path) out += typeof seg === "number" ? `[${seg}]` : `.${String(seg)}`;
  return out;
}

/** Parses a successful body as JSON or throws ARRAY_CONTRACT. */
export function jsonBody(array: string, path: string, text: string): unknown {
  const body = parseJson(text);
  if (body === NOT_JSON) throw contract(array, path, "(body)", "not JSON");
  return body;
}

export function validateItems<T>(
  array: string,
  path: string,
  items: readonly unknown[],
  schema: z.ZodType<T> | undefined,
): T[] {
  if (!schema) return items as T[];
  const out: T[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const r = schema.safeParse(items[i]);
    if (!r.success) {
      const issue = r.error.issues[0];
      throw contract(array, path, fieldPath(`items[${i}]`, issue?.path ?? []), issue?.message ?? "invalid");
    }
    out[i] = r.data;
  }
  return out;
}

/** A GET list envelope → Page, validating each item. */
export function toPage<T>(
  array: string,
  path: string,
  text: string,
  schema: z.ZodType<T> | undefined,
): Page<T> {
  const env = listEnvelopeSchema.safeParse(jsonBody(array, path, text) ?? {});
  if (!env.success) {
    const issue = env.error.issues[0];
    throw contract(array, path, fieldPath("(body)", issue?.path ?? []), issue?.message ?? "invalid");
  }
  const { items, pagination_info: info, total } = env.data;
  const page: Page<T> = { items: validateItems(array, path, items ?? [], schema) };
  if (info?.total_item_count !== undefined) page.totalItemCount = info.total_item_count;
  if (info) page.continuationToken = info.continuation_token ?? null;
  if (total !== undefined) page.total = total;
  return page;
}

/** POST/PATCH answers `{"items": [...]}`; an empty body is tolerated as no items. */
export function toItems<T>(array: string, path: string, text: string, schema: z.ZodType<T> | undefined): T[] {
  const body = jsonBody(array, path, text);
  if (body === undefined) return [];
  const env = listEnvelopeSchema.safeParse(body);
  if (!env.success) throw contract(array, path, "items", 'expected {"items": [...]}');
  return validateItems(array, path, env.data.items ?? [], schema);
}
