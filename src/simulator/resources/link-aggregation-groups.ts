/**
 * POST /link-aggregation-groups. Before REST 1.12 the group's name travels in the LinkAggregationGroup body (or
 * the array picks one); from 1.12 the `names` parameter is accepted as well (spec, "Other parameters noted").
 * Listing, PATCH and DELETE stay with the generic collection.
 */
import { z } from "zod";
import { atLeast } from "../../rest-spec/versions.js";
import { bodyObject, type Json, parseBody, referenceByName, rejectReadOnly } from "../models/body.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { type Handler, ok } from "./common.js";
import { collection } from "./generic.js";

const PATH = "/link-aggregation-groups";
const MODEL = "LinkAggregationGroup";
const NAMES_SINCE = "1.12";
const READ_ONLY = ["id", "lag_speed", "mac_address", "port_speed", "status"] as const;

const postBody = z.strictObject({
  name: z.string().min(1).optional(),
  ports: z.array(referenceByName).min(1),
});

/** The name the new group gets: `names` (1.12+), else the body's `name`, else the first free `lagN`. */
function groupName(req: SimRequest, bodyName: string | undefined, taken: ReadonlyMap<string, Json>): string {
  const names = req.query.list("names")?.filter((n) => n !== "");
  if (req.query.has("names") && !atLeast(req.version, NAMES_SINCE)) {
    throw badRequest(
      `'names' is not accepted by POST ${PATH} before REST ${NAMES_SINCE}; give the group's name in the body ('name').`,
    );
  }
  if (names !== undefined) {
    if (names.length !== 1)
      throw badRequest(
        `Give exactly one name in 'names': a port belongs to one link aggregation group only.`,
      );
    if (bodyName !== undefined) throw badRequest(`'names' and the body's 'name' cannot be used together.`);
  }
  const chosen = names?.[0] ?? bodyName;
  if (chosen !== undefined) {
    if (taken.has(chosen)) throw badRequest(`'${chosen}' already exists.`, chosen);
    return chosen;
  }
  let n = 1;
  while (taken.has(`lag${n}`)) n++;
  return `lag${n}`;
}

/** Ports must be known hardware connectors (when the array lists any) and not in another group. */
function checkPorts(state: SimState, groups: ReadonlyMap<string, Json>, ports: readonly string[]): Json[] {
  const connectors = collection(state, "/hardware-connectors").items;
  const inUse = new Map<string, string>();
  for (const [groupName, group] of groups) {
    for (const p of (group["ports"] as { name?: string }[] | undefined) ?? [])
      if (p.name) inUse.set(p.name, groupName);
  }
  return ports.map((port) => {
    const connector = connectors.get(port);
    if (connectors.size > 0 && !connector) throw badRequest(`Port '${port}' does not exist.`, port);
    const owner = inUse.get(port);
    if (owner !== undefined)
      throw badRequest(`Port '${port}' already belongs to link aggregation group '${owner}'.`, port);
    return connector ?? {};
  });
}

function portSpeed(connector: Json): number {
  const lane = connector["lane_speed"];
  const count = connector["port_count"];
  return typeof lane === "number" && typeof count === "number" ? lane * count : 10_000_000_000;
}

/** A locally administered unicast MAC derived from the id, so the same seed gives the same address. */
function macFrom(id: string): string {
  const hex = id.replace(/-/g, "").slice(0, 10);
  return ["02", ...(hex.match(/../g) ?? [])].join(":");
}

export const createLinkAggregationGroups: Handler = (req, state) => {
  const raw = bodyObject(req, MODEL);
  rejectReadOnly(raw, READ_ONLY, MODEL);
  const body = parseBody(postBody, raw, MODEL, req.version);
  const groups = collection(state, PATH).items;
  const name = groupName(req, body.name, groups);
  const portNames = body.ports.map((p) => p.name);
  const duplicate = portNames.find((p, i) => portNames.indexOf(p) !== i);
  if (duplicate !== undefined) throw badRequest(`Port '${duplicate}' is listed twice.`, duplicate);
  const connectors = checkPorts(state, groups, portNames);
  const speed = Math.min(...connectors.map(portSpeed));
  const id = state.newId();
  const group: Json = {
    name,
    id,
    lag_speed: speed * portNames.length,
    mac_address: macFrom(id),
    ports: portNames.map((p, i) => ({
      name: p,
      id: connectors[i]?.["id"] ?? null,
      resource_type: "hardware",
    })),
    port_speed: speed,
    status: "healthy",
  };
  groups.set(name, group);
  if (atLeast(req.version, "1.8")) return ok([group]);
  const { id: _id, ...withoutId } = group;
  return ok([withoutId]);
};
