/**
 * The endpoint a catalogue verb sends, read from the one operation table of both generations: the 1.x row where
 * the operation has one (so the 1.x words, parameters and body model of every existing noun stay as they were),
 * else the 2.x row in the same shape. The verb's version gate asks the dialect of the array's own version which
 * version first has the operation, so a 2.x-only verb refuses on a 1.x array by saying where it exists.
 */
import type { CommandContext } from "../../../src/core/catalogue/define-command.js";
import { UserFacingError } from "../../../src/errors.js";
import { versionTooOld } from "../../../src/flashblade/errors.js";
import { dialect } from "../../../src/rest-spec/dialect.js";
import type { EndpointSpec, HttpMethod } from "../../../src/rest-spec/endpoints.js";
import { findOperation, type Operation } from "../../../src/rest-spec/operations.js";
import { atLeast, generationOf } from "../../../src/rest-spec/versions.js";

export type CatalogueEndpoint = EndpointSpec & { readonly op: Operation };

const cache = new Map<string, CatalogueEndpoint | null>();

/** `method path` in the operation table (its 1.x path or its canonical one), as the catalogue reads it. */
export function endpointOf(method: HttpMethod, path: string): CatalogueEndpoint | undefined {
  const key = `${method} ${path}`;
  let hit = cache.get(key);
  if (hit === undefined) {
    const op = findOperation(method, path);
    const row: EndpointSpec | undefined =
      op?.v1 ??
      (op?.v2
        ? {
            method: op.v2.method,
            path: op.v2.path,
            since: op.v2.since,
            versioned: op.v2.versioned,
            params: op.v2.params,
            ...(op.v2.body ? { body: op.v2.body } : {}),
            ...(op.v2.response ? { response: op.v2.response } : {}),
          }
        : undefined);
    hit = op && row ? { ...row, op } : null;
    cache.set(key, hit);
  }
  return hit ?? undefined;
}

/** Whether the endpoint's operation exists only in REST 2.x (its verbs refuse on a 1.x array). */
export const only2x = (e: CatalogueEndpoint | undefined): boolean => e !== undefined && e.op.v1 === undefined;

/**
 * Refuses before sending when the array's version lacks the operation: "… needs REST 2.17, fb-lab-02 runs 2.12",
 * or, when the array's generation has no such operation, "… is not in REST 1.x (it exists from REST 2.3)".
 */
export function requireOperation(
  e: CatalogueEndpoint,
  ctx: CommandContext,
  version: string,
  what: string,
  fallbackSince: string,
): void {
  const gen = generationOf(version);
  // An existing 1.x noun keeps its 1.x gate on 1.x arrays (the catalogue's own since, e.g. a field's or a list's).
  const since =
    gen === 1 ? (e.op.v1 ? fallbackSince : undefined) : (dialect(version).since(e.op) ?? undefined);
  if (since === undefined) {
    const other = gen === 2 ? e.op.v1?.since : e.op.v2?.since;
    throw new UserFacingError(
      "ARRAY_VERSION_TOO_OLD",
      `${what} is not in REST ${gen}.x (it exists from REST ${other ?? "?"}), ${ctx.arrayName} runs ${version}. Nothing was sent.`,
      { details: { array: ctx.arrayName, arrayVersion: version, needed: other ?? "?", what } },
    );
  }
  if (!atLeast(version, since)) throw versionTooOld(ctx.arrayName, version, since, what);
}
