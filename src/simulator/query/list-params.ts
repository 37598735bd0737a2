/**
 * Reads and validates every listing parameter before any work is done, so a bad value is a 400 and never a
 * half-served page.
 */
import { badRequest, type SimQuery } from "../types.js";
import { compileFilter, type Predicate } from "./filter-eval.js";
import { parseSort, type SortKey } from "./sort.js";

export interface ListParams {
  readonly start: number;
  readonly limit: number | undefined;
  readonly token: string | undefined;
  readonly filter: Predicate | undefined;
  /** Empty when no sort was asked for. */
  readonly sort: readonly SortKey[];
  readonly total: boolean;
  readonly totalOnly: boolean;
}

export function readListParams(
  query: SimQuery,
  totals: "object" | "list" | "none",
  version: string,
): ListParams {
  if (totals === "none") {
    const param = ["total", "total_only"].find((name) => query.has(name));
    if (param !== undefined) {
      throw badRequest(
        `The ${param} parameter is not supported by this endpoint at version ${version}.`,
        param,
      );
    }
  }
  const start = query.int("start") ?? 0;
  if (start < 0)
    throw badRequest(`Invalid value for query parameter 'start': ${start} must be >= 0.`, "start");
  const limit = query.int("limit");
  if (limit !== undefined && limit < 0) {
    throw badRequest(`Invalid value for query parameter 'limit': ${limit} must be >= 0.`, "limit");
  }
  const token = query.string("token");
  if (token === "")
    throw badRequest("The token parameter is empty; pass the continuation_token you received.", "token");
  const expr = query.string("filter");
  return {
    start,
    limit,
    token,
    filter: expr === undefined ? undefined : compileFilter(expr),
    sort: parseSort(query.list("sort") ?? []),
    total: query.bool("total") ?? false,
    totalOnly: query.bool("total_only") ?? false,
  };
}
