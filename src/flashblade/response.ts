/**
 * Reading response bodies: JSON that may not be JSON, error lists under `errors` or `error`, the list
 * envelope, and item validation that names the array, path and field on a mismatch.
 */
import { z } from "zod";
import { generationOf } from "../rest-spec/versions.js";
import { contract } from "./errors.js";
import { type JsonCheck, jsonCheckOf } from "./json-check.js";
import * as readSchemas from "./schemas.js";
import { type ErrorEntry, errorBodySchema, paginationInfoSchema } from "./schemas.js";
import { in1xShape } from "./shape-2x.js";
import type { Page } from "./types.js";

const NOT_JSON = Symbol("not json");

type PaginationInfo = z.output<typeof paginationInfoSchema>;

function parseJson(text: string): unknown {
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
  nullsToUndefined(body);
  const parsed = errorBodySchema.safeParse(body);
  if (!parsed.success) return [];
  const { errors, error, message } = parsed.data;
  if (errors && errors.length > 0) return errors;
  if (typeof error === "string") return [{ message: error, context: undefined, code: undefined }];
  if (Array.isArray(error)) return error;
  if (error) return [error];
  return message ? [{ message, context: undefined, code: undefined }] : [];
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

/**
 * Replaces null values with undefined, recursively (array elements stay). Absent and null mean the same on
 * these APIs; one representation keeps the schemas simple. Assigning (not `delete`) keeps objects in V8's
 * fast mode: measured, deleting made this 3x slower and the validation after it slower too.
 */
export function nullsToUndefined(value: unknown): void {
  if (value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (v !== null && typeof v === "object") nullsToUndefined(v);
    }
    return;
  }
  const obj = value as Record<string, unknown>;
  for (const key in obj) {
    const v = obj[key];
    if (v === null) obj[key] = undefined;
    else if (typeof v === "object") nullsToUndefined(v);
  }
}

/**
 * Validates items against `schema`; nulls become undefined first. Items the schema's JSON check (json-check.ts)
 * accepts are what zod would return, and are returned as they are; otherwise zod parses the list and names the
 * offending field. Without a schema the items are returned as the array sent them. One parse of the whole list
 * (its array schema made once per item schema) costs about a fifth less than a parse per item.
 */
export function validateItems<T>(
  array: string,
  path: string,
  items: readonly unknown[],
  schema: z.ZodType<T> | undefined,
): T[] {
  if (!schema) return items as T[];
  nullsToUndefined(items);
  const check = checkOf(schema);
  if (check && items.every(check)) return items as T[];
  const r = listSchemaOf(schema).safeParse(items);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const [index, ...rest] = issue?.path ?? [];
  throw contract(array, path, fieldPath(`items[${String(index)}]`, rest), issue?.message ?? "invalid");
}

const listSchemas = new WeakMap<z.ZodType, z.ZodArray<z.ZodType>>();
/** Per item schema, its JSON check, or null when it has none (made on first use). */
const checks = new WeakMap<z.ZodType, JsonCheck | null>();

/**
 * The read schemas of schemas.ts: plain (no refinements, transforms or pipes, which JSON Schema cannot show), so
 * only they get a JSON check; any other schema is parsed by zod.
 */
const PLAIN = new Set<unknown>(Object.values(readSchemas));

function checkOf(schema: z.ZodType): JsonCheck | null {
  let check = checks.get(schema);
  if (check === undefined) {
    check = PLAIN.has(schema) ? (jsonCheckOf(schema) ?? null) : null;
    checks.set(schema, check);
  }
  return check;
}

function listSchemaOf<T>(schema: z.ZodType<T>): z.ZodType<T[]> {
  let list = listSchemas.get(schema);
  if (!list) {
    list = z.array(schema);
    listSchemas.set(schema, list);
  }
  return list as unknown as z.ZodType<T[]>;
}

function envelope(array: string, path: string, text: string): Record<string, unknown> {
  const body = jsonBody(array, path, text) ?? {};
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw contract(array, path, "(body)", "expected a JSON object");
  }
  const items = (body as Record<string, unknown>).items;
  if (items !== undefined && items !== null && !Array.isArray(items)) {
    throw contract(array, path, "items", "expected a list");
  }
  return body as Record<string, unknown>;
}

function paginationInfo(array: string, path: string, raw: unknown): PaginationInfo {
  nullsToUndefined(raw);
  const info = paginationInfoSchema.safeParse(raw);
  if (!info.success) {
    const issue = info.error.issues[0];
    throw contract(array, path, fieldPath("pagination_info", issue?.path ?? []), issue?.message ?? "invalid");
  }
  return info.data;
}

/**
 * A GET list envelope → Page, validating each item. The paging facts are where the version's generation puts
 * them (dialect.ts): 1.x `pagination_info`, 2.x `continuation_token` and `total_item_count` at the top level. A
 * 207 (2.x partial answer) carries `errors` beside its items: they come back on the page.
 */
export function toPage<T>(
  array: string,
  path: string,
  text: string,
  schema: z.ZodType<T> | undefined,
  version?: string,
): Page<T> {
  const body = envelope(array, path, text);
  const raw = (body.items as unknown[] | null) ?? [];
  const v2 = version !== undefined && generationOf(version) === 2;
  const page: Page<T> = { items: validateItems(array, path, v2 ? in1xShape(path, raw) : raw, schema) };
  if (version !== undefined && generationOf(version) === 2) {
    const info = paginationInfo(array, path, {
      continuation_token: body.continuation_token,
      total_item_count: body.total_item_count,
    });
    if (info.total_item_count !== undefined) page.totalItemCount = info.total_item_count;
    page.continuationToken = info.continuation_token ?? null;
    if (Array.isArray(body.errors) && body.errors.length > 0)
      page.errors = errorEntries(JSON.stringify(body));
  } else {
    const rawInfo = body.pagination_info;
    if (rawInfo !== undefined && rawInfo !== null) {
      const info = paginationInfo(array, path, rawInfo);
      if (info.total_item_count !== undefined) page.totalItemCount = info.total_item_count;
      page.continuationToken = info.continuation_token ?? null;
    }
  }
  if (body.total !== undefined && body.total !== null) page.total = body.total;
  return page;
}

/** POST/PATCH answers `{"items": [...]}`; an empty body is tolerated as no items. */
export function toItems<T>(
  array: string,
  path: string,
  text: string,
  schema: z.ZodType<T> | undefined,
  version?: string,
): T[] {
  if (text.trim() === "") return [];
  const body = envelope(array, path, text);
  const raw = (body.items as unknown[] | null) ?? [];
  const v2 = version !== undefined && generationOf(version) === 2;
  return validateItems(array, path, v2 ? in1xShape(path, raw) : raw, schema);
}
