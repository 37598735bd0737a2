/**
 * The one send path: a change is the requests its impact planned, sent by the pipeline in order, exactly as the
 * dry run and the card showed them. A command only plans; values known at run time (a typed secret, a key made
 * on the other array) fill the placeholders the card named and nothing else; a request for another array names
 * it as data (`on`). At approval the plan is compared request by request in its canonical form.
 */

import { InternalError, UserFacingError } from "../../errors.js";
import { withContext } from "../../flashblade/fleet-members.js";
import type { ArrayClient } from "../../flashblade/types.js";
import { redact } from "../../redact.js";
import type { CommandContext, Impact, PlannedRequest } from "../catalogue/define-command.js";

/** What each planned request answered with, in order (items as the array sent them). */
export type Responses = unknown[][];

/** Fills placeholders of the next request from run-time values; `responses` holds what earlier ones answered. */
export type Fill = (responses: Responses) => Promise<Record<string, unknown>>;

/** Stable JSON: object keys sorted at every level. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/**
 * One planned request as a line that is equal for equal requests: target array, method, path, query pairs
 * sorted, body as canonical JSON. Placeholders stay placeholders, so no run-time value (secret) is in it, and
 * query and body pass the one redaction: the line is what the card showed and what the store keeps, so a
 * credential typed into a value (a proxy's password) is compared as the card showed it, `user:***@`.
 */
export function canonicalRequest(r: PlannedRequest, home: string): string {
  const query = Object.entries(redact(r.query ?? {}))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .sort()
    .join("&");
  const body = r.body === undefined ? "" : ` ${canonicalJson(redact(r.body))}`;
  return `${r.on ?? home}: ${r.method} ${r.path}${query ? `?${query}` : ""}${body}`;
}

export function canonicalPlan(impact: Impact, home: string): string[] {
  return impact.requests.map((r) => canonicalRequest(r, home));
}

/** "request 1: <old> → <new>" for every planned request that differs, was added or dropped. */
export function describePlanChange(before: readonly string[], after: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    const was = before[i];
    const now = after[i];
    if (was === now) continue;
    out.push(`request ${i + 1}: ${was ?? "(none)"} → ${now ?? "(none)"}`);
  }
  return out;
}

/**
 * The impact of a change on a fleet member reached through its fleet: each request for it names the member in
 * `context_names`, so the card, the stored plan and the wire carry the same request.
 */
export async function inContext(impact: Impact, client: ArrayClient): Promise<Impact> {
  if (client.context === undefined) return impact;
  const version = await client.version();
  const requests = impact.requests.map((r) => {
    const query = withContext(client, r, version) as PlannedRequest["query"];
    return query === r.query ? r : { ...r, ...(query ? { query } : {}) };
  });
  return { ...impact, requests };
}

/** Every string in `v` equal to one of `names`. */
function holesIn(v: unknown, names: readonly string[], found: Set<string>): Set<string> {
  if (typeof v === "string" && names.includes(v)) found.add(v);
  else if (Array.isArray(v)) for (const x of v) holesIn(x, names, found);
  else if (v && typeof v === "object") for (const x of Object.values(v)) holesIn(x, names, found);
  return found;
}

function filled(v: unknown, values: Readonly<Record<string, unknown>>): unknown {
  if (typeof v === "string" && Object.hasOwn(values, v)) return values[v];
  if (Array.isArray(v)) return v.map((x) => filled(x, values));
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, filled(x, values)]));
  return v;
}

/**
 * Sends the impact's requests in order, each on the array it names, and returns what each answered. A
 * request holding placeholders is sent only once `fill` gave a value for every one of them and for nothing the
 * card did not name. An impact with no request sends nothing: the caller says so.
 */
export async function sendPlan(ctx: CommandContext, impact: Impact, fill?: Fill): Promise<Responses> {
  const names = impact.placeholders ?? [];
  const responses: Responses = [];
  for (const r of impact.requests) {
    const holes = [...holesIn(r.body, names, new Set())];
    let body = r.body;
    if (holes.length > 0) {
      if (!fill) throw new InternalError("PLACEHOLDER_UNFILLED", `${r.path} has placeholders and no fill`);
      const values = await fill(responses);
      const stray = Object.keys(values).filter((k) => !names.includes(k));
      const missing = holes.filter((h) => values[h] === undefined);
      if (stray.length > 0 || missing.length > 0)
        throw new InternalError("PLACEHOLDER_MISMATCH", `fill for ${r.path} does not match its placeholders`);
      body = filled(r.body, values);
    }
    const client = r.on === undefined || r.on === ctx.arrayName ? ctx.array : ctx.pool.get(r.on);
    const { on: _on, ...call } = r;
    responses.push(await client.send({ ...call, ...(body === undefined ? {} : { body }) }));
  }
  return responses;
}

/** The answer to a change whose impact planned no request: nothing was sent, and it says so. */
export function nothingPlanned(impact: Impact, array: string): UserFacingError {
  return new UserFacingError(
    "NOTHING_PLANNED",
    `Nothing was sent: ${impact.target} on ${array} needs no request, so nothing was changed.`,
  );
}
