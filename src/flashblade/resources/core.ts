/** What resource modules need from the client: the generic calls, nothing transport-specific. */
import { contract } from "../errors.js";
import type { ArrayClient } from "../types.js";

export type ClientCore = Pick<
  ArrayClient,
  "name" | "version" | "supports" | "get" | "iterate" | "count" | "post" | "patch" | "delete"
>;

/** The single item a POST/PATCH or singleton GET must return. */
export function single<T>(array: string, path: string, items: readonly T[]): T {
  const first = items[0];
  if (first === undefined) throw contract(array, path, "items", "expected one item, got none");
  return first;
}
