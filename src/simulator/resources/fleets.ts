/**
 * Fleets (2.17+): arrays managed as one, each member able to act for the others (`context_names`, wire-2x.ts).
 * - An array is in at most one fleet: creating one makes the array its first member (`joined`).
 * - A member mints a fleet key (POST /fleets/fleet-key, valid KEY_MS); another array joins by POST
 *   /fleets/members run on itself, naming itself and that key. Members in this process learn of each other as
 *   real members do over their network: every member's list gains the new one, and the new one lists them all.
 * - A member is removed from another member (the local array leaves by deleting the fleet, when it is alone);
 *   a fleet with other members cannot be deleted. A rename follows to every member's `fleet` reference.
 */
import { nameProblem } from "../../rest-spec/names.js";
import type { Json } from "../models/body.js";
import { bodyObject } from "../models/body.js";
import { allPeers } from "../peers.js";
import { parseQuery } from "../query/index.js";
import type { SimState } from "../state.js";
import { badRequest } from "../types.js";
import { EMPTY, type Handler, listing, ok, requireList, selectByNamesOrIds } from "./common.js";
import { type Rec, records } from "./family-store.js";
import { renameIn } from "./node-groups.js";

const FLEETS = "/fleets";
/** Members keyed by array name. */
const MEMBERS = "/fleets/members";
const KEYS = "/fleets/fleet-key";
/** How long a fleet key lets an array join (a day, like a connection key's order of magnitude). */
export const KEY_MS = 24 * 3_600_000;

function memberRow(fleet: Rec, name: string, id: string, local: boolean): Rec {
  return {
    name,
    id,
    fleet: { name: fleet.name, id: fleet.id, is_local: true, resource_type: "fleets" },
    member: { name, id, is_local: local, resource_type: "arrays" },
    status: "joined",
    status_details: "",
    coordinator_of: [],
  };
}

const shown = ({ name: _n, id: _i, ...row }: Rec) => row;
const fleetOf = (state: SimState): Rec | undefined => [...records(state, FLEETS).values()][0];

/**
 * The other member `name` of `state`'s fleet, where it runs in this process: what a member acts for when a
 * request names it as context. Only names the fleet lists qualify.
 */
export function fleetPeer(state: SimState, name: string): SimState | undefined {
  const row = records(state, MEMBERS).get(name);
  if (!row || name === state.array.name) return undefined;
  return membersHere(state).find((p) => p.array.name === name);
}

/**
 * The other members of `state`'s fleet running in this process: arrays its member list names that list it back,
 * in the same fleet. A fleet's id alone is not enough: demo arrays seeded alike in one process (tests) share ids.
 */
function membersHere(state: SimState): SimState[] {
  const fleet = fleetOf(state);
  if (!fleet) return [];
  const listed = records(state, MEMBERS);
  return allPeers().filter(
    (p) =>
      p !== state &&
      listed.has(p.array.name) &&
      fleetOf(p)?.id === fleet.id &&
      records(p, MEMBERS).has(state.array.name),
  );
}

const createFleets: Handler = (req, state) => {
  const names = requireList(req, "names");
  if (names.length > 1 || records(state, FLEETS).size > 0)
    throw badRequest(`Array '${state.array.name}' is already in a fleet (an array is in at most one).`);
  const name = names[0] as string;
  const problem = nameProblem(name);
  if (problem) throw badRequest(`'${name}' is not a valid name (${problem}).`, name);
  const fleet: Rec = { name, id: state.newId(), is_local: true };
  records(state, FLEETS).set(name, fleet);
  records(state, MEMBERS).set(state.array.name, memberRow(fleet, state.array.name, state.array.id, true));
  return ok([fleet]);
};

const deleteFleets: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, records(state, FLEETS), "Fleet") as Rec[];
  const others = [...records(state, MEMBERS).values()].filter((m) => m.name !== state.array.name);
  if (targets.length > 0 && others.length > 0)
    throw badRequest(
      `Fleet '${targets[0]?.name}' still has members ${others.map((m) => `'${m.name}'`).join(", ")}; remove them first.`,
    );
  for (const f of targets) records(state, FLEETS).delete(f.name);
  if (targets.length > 0) records(state, MEMBERS).clear();
  return EMPTY;
};

/** A fleet is renamed by PATCH `{name}`; every member's `fleet` reference follows. */
const renameFleets: Handler = (req, state) => {
  const before = fleetOf(state);
  const others = before ? membersHere(state) : [];
  const fleet = renameIn(req, state, FLEETS, "Fleet", "FleetPatch");
  for (const s of [state, ...others]) {
    if (s !== state) {
      records(s, FLEETS).clear();
      records(s, FLEETS).set(fleet.name, { ...fleet });
    }
    for (const m of records(s, MEMBERS).values()) m["fleet"] = { ...(m["fleet"] as Json), name: fleet.name };
  }
  return ok([fleet]);
};

const listMembers: Handler = (req, state) => {
  const wanted = req.query.list("member_names");
  const rows = [...records(state, MEMBERS).values()].filter((m) => !wanted || wanted.includes(m.name));
  return listing(rows.map(shown), req, { noun: "Fleet member", nameParams: [] });
};

const listKeys: Handler = (req, state) =>
  listing(
    [...records(state, KEYS).values()].filter((k) => (k["expires"] as number) > state.clock()).map(shown),
    req,
    { noun: "Fleet key", nameParams: [] },
  );

const createKey: Handler = (_req, state) => {
  const fleet = fleetOf(state);
  if (!fleet) throw badRequest(`Array '${state.array.name}' is in no fleet; create one or join one first.`);
  const now = state.clock();
  const key: Rec = {
    name: `key-${state.newId()}`,
    id: "",
    fleet_key: `${fleet.id}.${state.newId()}`,
    created: now,
    expires: now + KEY_MS,
  };
  records(state, KEYS).set(key.name, key);
  return ok([shown(key)]);
};

/** The fleet whose member in this process issued `key`, still valid at `now`. */
/** The member that issued `key`, still valid at `now`. */
function issuerOf(key: string, now: number): SimState | undefined {
  return allPeers().find((p) =>
    [...records(p, KEYS).values()].some((k) => k["fleet_key"] === key && (k["expires"] as number) > now),
  );
}

/** Run on the array joining: it names itself and the key a member of the fleet issued. */
const joinFleet: Handler = (req, state) => {
  if (fleetOf(state))
    throw badRequest(`Array '${state.array.name}' is already in a fleet (an array is in at most one).`);
  const asked = req.query.list("fleet_names")?.[0];
  const body = bodyObject(req, "FleetMemberPost", true);
  const asks = (body["members"] as Json[] | undefined) ?? [];
  const one = asks[0];
  if (asks.length !== 1 || !one)
    throw badRequest("'members' names this array once, with the fleet 'key' a member issued.");
  const name = String((one["member"] as Json | undefined)?.["name"] ?? "");
  if (name !== state.array.name)
    throw badRequest(`Run this on the array joining: 'member.name' must be '${state.array.name}'.`, name);
  const issuer = typeof one["key"] === "string" ? issuerOf(one["key"], state.clock()) : undefined;
  const fleet = issuer ? fleetOf(issuer) : undefined;
  if (!fleet)
    throw badRequest(
      "The fleet key is not one a fleet member issued, or it expired; make a new one there (POST /fleets/fleet-key).",
      "key",
    );
  if (asked !== undefined && asked !== fleet.name)
    throw badRequest(`The key is for fleet '${fleet.name}', not '${asked}'.`, asked);
  const others = issuer ? [issuer, ...membersHere(issuer)] : [];
  const mine = memberRow(fleet, state.array.name, state.array.id, true);
  for (const p of others) {
    records(p, MEMBERS).set(mine.name, memberRow(fleet, mine.name, state.array.id, false));
    const them = records(p, MEMBERS).get(p.array.name);
    records(state, MEMBERS).set(p.array.name, memberRow(fleet, p.array.name, them?.id ?? p.array.id, false));
  }
  records(state, FLEETS).set(fleet.name, { ...fleet });
  records(state, MEMBERS).set(mine.name, mine);
  return ok([shown(mine)]);
};

const removeMembers: Handler = (req, state) => {
  const names = requireList(req, "member_names");
  for (const n of names) {
    if (!records(state, MEMBERS).has(n)) throw badRequest(`'${n}' is not a fleet member.`, n);
    if (n === state.array.name)
      throw badRequest("The local array leaves a fleet by deleting it or from another member.", n);
  }
  const fleet = fleetOf(state);
  const here = [state, ...(fleet ? membersHere(state) : [])];
  for (const n of names)
    for (const p of here) {
      if (p.array.name === n) {
        records(p, FLEETS).clear();
        records(p, MEMBERS).clear();
      } else records(p, MEMBERS).delete(n);
    }
  return EMPTY;
};

export const FLEET_ROUTES = {
  [FLEETS]: { POST: createFleets, PATCH: renameFleets, DELETE: deleteFleets },
  [MEMBERS]: { GET: listMembers, POST: joinFleet, DELETE: removeMembers },
  [KEYS]: { GET: listKeys, POST: createKey },
};

/**
 * `member` joins `holder`'s fleet as an admin joins one: a key minted on the holder, then POST /fleets/members
 * run on the member with it (the console demo's fb-edge-01, reachable only through its fleet).
 */
export function joinThroughKey(member: SimState, holder: SimState): void {
  const req = (method: "POST", path: string, body?: unknown) => ({
    method,
    path,
    version: "2.28",
    query: parseQuery(""),
    body,
    user: "pureuser",
  });
  const minted = createKey(req("POST", KEYS), holder) as { items?: Json[] };
  const key = minted.items?.[0]?.["fleet_key"];
  joinFleet(req("POST", MEMBERS, { members: [{ member: { name: member.array.name }, key }] }), member);
}
