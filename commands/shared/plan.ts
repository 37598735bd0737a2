/** PlannedRequest values built from the client's own wire helpers, so a dry run shows what is really sent. */
import type { PlannedRequest } from "../../src/core/define-command.js";
import type { Query } from "../../src/flashblade/types.js";

/** Query values as they go on the wire: lists comma-joined, undefined dropped. */
export function planned(
  method: PlannedRequest["method"],
  path: string,
  query: Query = {},
  body?: unknown,
): PlannedRequest {
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
