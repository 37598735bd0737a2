/**
 * What a REST 2.x list request may carry that the handlers (written in 1.12's terms) know nothing of, served once
 * here for every operation from the tables: `context_names` and `allow_errors` (2.17+, the fleet context an
 * operation runs in), `total_only` where the 2.x table lists it (1.12 dropped it from file systems, snapshots
 * and transfers; 2.x has it again), and the `context` reference on items whose 2.x model has one.
 * A fleet member acts for another member running in this process (resources/fleets.ts): a request naming it as
 * the one context is answered from that member's state; any other name is a context this array does not know.
 */
import type { Dialect } from "../rest-spec/dialect.js";
import { MODELS_2X } from "../rest-spec/models-2x.js";
import type { Operation } from "../rest-spec/operations.js";
import { atLeast } from "../rest-spec/versions.js";
import type { ApiResponse } from "./api-response.js";
import { sumItems } from "./query/totals.js";
import type { SimState } from "./state.js";
import { SimHttpError } from "./types.js";

/** What the 2.x layer took out of a request, to apply to the handler's answer. */
export interface Wire2xRequest {
  /** The query the handler sees: without the parameters read here. */
  search: string;
  totalOnly: boolean;
  /** Named contexts this array is not, answered beside the items (allow_errors=true) with 207. */
  contextErrors: { context: string; message: string }[];
  /** The fleet member named as the one context: the request runs on its state. */
  peer?: SimState;
}

/** Paging is over the items a total sums: a total_only request counts every item the filter selects. */
const TOTAL_ONLY_DROPS = ["total_only", "limit", "offset", "continuation_token"];

const unknownContext = (name: string) =>
  `Context '${name}' does not exist (neither this array nor a member of its fleet).`;

function isTrue(v: string | null): boolean {
  return v !== null && v.toLowerCase() === "true";
}

/** Reads (and removes) the 2.x-only parameters of `search`; an unknown context without allow_errors is a 400. */
export function read2x(
  d: Dialect,
  op: Operation,
  search: string,
  arrayName: string,
  member: (name: string) => SimState | undefined = () => undefined,
): Wire2xRequest {
  const params = d.params(op);
  const q = new URLSearchParams(search);
  const out: Wire2xRequest = { search, totalOnly: false, contextErrors: [] };
  if ("context_names" in params && q.has("context_names")) {
    const names = q
      .getAll("context_names")
      .flatMap((v) => v.split(","))
      .map((s) => s.trim())
      .filter(Boolean);
    let foreign = names.filter((n) => n !== arrayName);
    // One context, another member of this array's fleet: answered from that member, as real members do.
    const peer = foreign.length === 1 && names.length === 1 ? member(foreign[0] as string) : undefined;
    if (peer) {
      out.peer = peer;
      foreign = [];
    }
    const allowErrors = "allow_errors" in params && isTrue(q.get("allow_errors"));
    const first = foreign[0];
    if (first !== undefined && !allowErrors) throw new SimHttpError(400, unknownContext(first), first);
    out.contextErrors = foreign.map((n) => ({ context: n, message: unknownContext(n) }));
    q.delete("context_names");
    q.delete("allow_errors");
  }
  if ("total_only" in params && q.has("total_only")) {
    out.totalOnly = isTrue(q.get("total_only"));
    for (const k of out.totalOnly ? TOTAL_ONLY_DROPS : ["total_only"]) q.delete(k);
  }
  out.search = q.toString();
  return out;
}

type Json = Record<string, unknown>;

/** A field of a 2.x model at `version`: present from its `since`, gone after its `last`. */
function fieldAt(model: string | undefined, field: string, version: string) {
  const f = model === undefined ? undefined : MODELS_2X[model]?.[field];
  if (f === undefined || (f.since !== undefined && !atLeast(version, f.since))) return undefined;
  if (f.last !== undefined && atLeast(version, f.last) && f.last !== version) return undefined;
  return f;
}

/** The response model's item model (`array<ref:FileSystem>` → FileSystem). */
function itemModel(response: string | undefined, version: string): string | undefined {
  return /^array<ref:(\w+)>$/.exec(fieldAt(response, "items", version)?.type ?? "")?.[1];
}

/**
 * The handler's (1.x-shaped) answer with what `r` asked for: the total alone, the contexts that failed (207),
 * and each item's `context` where its model has one.
 */
export function answer2x(
  d: Dialect,
  op: Operation,
  r: Wire2xRequest,
  res: ApiResponse,
  array: { name: string; id: string },
): ApiResponse {
  const body = res.body as Json | undefined;
  if (res.status >= 300 || body === undefined || body === null || !Array.isArray(body.items)) return res;
  const response = op.v2?.response;
  let items = body.items as Json[];
  const out: Json = { ...body };
  if (fieldAt(itemModel(response, d.version), "context", d.version) !== undefined)
    items = items.map((i) => ({ ...i, context: { name: array.name, id: array.id } }));
  if (r.totalOnly) {
    const total = body.total ?? sumItems(items);
    const asList = fieldAt(response, "total", d.version)?.type.startsWith("array<") ?? false;
    out.total = asList ? (Array.isArray(total) ? total : [total]) : Array.isArray(total) ? total[0] : total;
    const info = body.pagination_info as Json | undefined;
    out.pagination_info = {
      continuation_token: null,
      total_item_count: info?.total_item_count ?? items.length,
    };
    items = [];
  }
  out.items = items;
  if (r.contextErrors.length > 0) {
    out.errors = r.contextErrors;
    return { ...res, status: 207, body: out };
  }
  return { ...res, body: out };
}
