/**
 * What resource modules need from the client: its reads, nothing transport-specific. No write is among them:
 * the typed helpers read and plan, and a change leaves only as planned, through the client's `send`.
 */
import { contract } from "../errors.js";
import type { ArrayClient, PlannedCall, Query } from "../types.js";

export type ClientCore = Pick<ArrayClient, "name" | "version" | "supports" | "get" | "iterate" | "count">;

/** A planned call with its query as sent: undefined values dropped, lists comma-joined. */
export function plan(
  method: PlannedCall["method"],
  path: string,
  query: Query = {},
  body?: unknown,
): PlannedCall {
  const q: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    q[k] = Array.isArray(v) ? v.join(",") : (v as string | number | boolean);
  }
  return {
    method,
    path,
    ...(Object.keys(q).length ? { query: q } : {}),
    ...(body === undefined ? {} : { body }),
  };
}

/** The single item a POST/PATCH or singleton GET must return. */
export function single<T>(array: string, path: string, items: readonly T[]): T {
  const first = items[0];
  if (first === undefined) throw contract(array, path, "items", "expected one item, got none");
  return first;
}
