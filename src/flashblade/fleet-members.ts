/**
 * Arrays the bot reaches through their fleet (REST 2.17+): a configured array that is a fleet member acts for the
 * other members when a request names one in `context_names`. A member not configured in the bot is reached that
 * way, through the configured member that lists it, with that array's session, limiter and health; only names a
 * fleet lists qualify, so text typed after `--array` never picks an arbitrary context.
 */
import { UserFacingError } from "../errors.js";
import type { HttpMethod } from "../rest-spec/endpoints.js";
import { findOperation } from "../rest-spec/operations.js";
import { atLeast } from "../rest-spec/versions.js";
import type { ArrayConnection } from "./connection.js";
import type { WireResponse } from "./transport.js";
import type { ArrayClient, Query } from "./types.js";

/** A member of a configured array's fleet that is not configured itself. */
export interface FleetMember {
  name: string;
  /** The configured array it is reached through. */
  via: string;
  fleet: string;
}

/** Fleets (and `context_names`) came with REST 2.17. */
export const FLEETS_SINCE = "2.17";

interface MemberRow {
  fleet?: { name?: unknown };
  member?: { name?: unknown; is_local?: unknown };
}

/** The other members of `client`'s fleet, as it lists them; none on an array before 2.17 or in no fleet. */
export async function fleetMembersOf(client: ArrayClient): Promise<FleetMember[]> {
  if (!(await client.supports(FLEETS_SINCE))) return [];
  const page = await client.get<MemberRow>("/fleets/members");
  return page.items.flatMap((row) => {
    const name = row.member?.name;
    if (row.member?.is_local !== false || typeof name !== "string" || name === "") return [];
    return [{ name, via: client.name, fleet: typeof row.fleet?.name === "string" ? row.fleet.name : "" }];
  });
}

/** Whether `method path` takes a context at `version` (the operations a fleet member may run for another). */
export function takesContext(method: HttpMethod, path: string, version: string): boolean {
  const op = findOperation(method, path);
  if (!op?.v2 || !("context_names" in op.v2.params)) return false;
  const since = op.v2.paramsSince?.["context_names"] ?? FLEETS_SINCE;
  return atLeast(version, since);
}

type Call = ArrayConnection["call"];

/**
 * The connection of a member reached through `via`: `via`'s own (session, limiter, health), every call naming
 * the member in `context_names`. An operation that takes no context cannot run for another member: refused
 * before anything is sent, rather than run on `via` by mistake.
 */
export function memberConnection(via: ArrayConnection, member: FleetMember): ArrayConnection {
  const call: Call = async (method, path, opts = {}): Promise<WireResponse> => {
    const version = via.negotiated ?? (await via.version());
    if (!takesContext(method, path, version))
      throw new UserFacingError(
        "ARRAY_NOT_APPLICABLE",
        `${member.name} is reached through its fleet (${member.fleet}, by ${member.via}), and ${method} ${path} ` +
          "cannot run for another fleet member; configure the array to use it.",
        { details: { array: member.name, via: member.via, method, path } },
      );
    const given = opts.query;
    const query = (v: string): Query => ({
      ...(typeof given === "function" ? given(v) : (given ?? {})),
      context_names: member.name,
    });
    return via.call(method, path, { ...opts, query });
  };
  // Everything else is via's: one session and one limiter per configured array, whatever it acts for.
  return new Proxy(via, {
    get(target, prop) {
      if (prop === "call") return call;
      if (prop === "name") return member.name;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A planned request's query with the member's context, where its operation takes one (what the card shows). */
export function withContext(
  client: ArrayClient,
  request: { method: HttpMethod; path: string; query?: Query; on?: string },
  version: string,
): Query | undefined {
  const context = client.context;
  if (context === undefined || (request.on !== undefined && request.on !== client.name)) return request.query;
  if (!takesContext(request.method, request.path, version)) return request.query;
  return { ...(request.query ?? {}), context_names: context.name };
}
