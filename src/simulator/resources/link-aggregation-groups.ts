/**
 * /link-aggregation-groups. Before REST 1.12 a new group's name travels in the LinkAggregationGroup body (or
 * the array picks one); from 1.12 the `names` parameter is accepted as well (spec, "Other parameters noted").
 * PATCH replaces, adds or removes ports and the group's speed follows; a group a subnet runs on cannot go.
 */
import { z } from "zod";
import { atLeast } from "../../rest-spec/versions.js";
import { bodyObject, type Json, parseBody, referenceByName, rejectReadOnly } from "../models/body.js";
import { type LagPort, type LagRec, renderLag } from "../models/network.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import { EMPTY, type Handler, listing, ok, preselect, selectByNamesOrIds } from "./common.js";
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
function groupName(
  req: SimRequest,
  bodyName: string | undefined,
  taken: ReadonlyMap<string, LagRec>,
): string {
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
function checkPorts(state: SimState, self: string | undefined, ports: readonly string[]): Json[] {
  const connectors = collection(state, "/hardware-connectors").items;
  const inUse = new Map<string, string>();
  for (const [groupName, group] of state.network.lags) {
    if (groupName !== self) for (const p of group.ports) inUse.set(p.name, groupName);
  }
  const duplicate = ports.find((p, i) => ports.indexOf(p) !== i);
  if (duplicate !== undefined) throw badRequest(`Port '${duplicate}' is listed twice.`, duplicate);
  return ports.map((port) => {
    const connector = connectors.get(port);
    if (connectors.size > 0 && !connector) throw badRequest(`Port '${port}' does not exist.`, port);
    const owner = inUse.get(port);
    if (owner !== undefined)
      throw badRequest(`Port '${port}' already belongs to link aggregation group '${owner}'.`, port);
    return connector ?? {};
  });
}

function toPorts(names: readonly string[], connectors: readonly Json[]): LagPort[] {
  return names.map((name, i) => {
    const id = connectors[i]?.["id"];
    return { name, id: typeof id === "string" ? id : null };
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

function view(req: SimRequest) {
  return (l: LagRec): Json => {
    const out = renderLag(l);
    if (atLeast(req.version, "1.8")) return out;
    const { id: _id, ...withoutId } = out;
    return withoutId;
  };
}

export const listLinkAggregationGroups: Handler = (req, state) => {
  const lags = state.network.lags;
  return listing([...preselect(req, lags, () => lags.values())].map(view(req)), req, {
    noun: "Link aggregation group",
  });
};

export const createLinkAggregationGroups: Handler = (req, state) => {
  const raw = bodyObject(req, MODEL);
  rejectReadOnly(raw, READ_ONLY, MODEL);
  const body = parseBody(postBody, raw, MODEL, req.version);
  const groups = state.network.lags;
  const name = groupName(req, body.name, groups);
  const portNames = body.ports.map((p) => p.name);
  const connectors = checkPorts(state, undefined, portNames);
  const id = state.newId();
  const group: LagRec = {
    name,
    id,
    ports: toPorts(portNames, connectors),
    port_speed: Math.min(...connectors.map(portSpeed)),
    mac_address: macFrom(id),
    status: "healthy",
  };
  groups.set(name, group);
  return ok([view(req)(group)]);
};

const patchBody = z
  .strictObject({
    ports: z.array(referenceByName).min(1),
    add_ports: z.array(referenceByName).min(1),
    remove_ports: z.array(referenceByName).min(1),
  })
  .partial();

/** The ports after a LinkAggregationGroupPatch: `ports` replaces, or `add_ports` / `remove_ports` edit. */
function nextPorts(l: LagRec, body: z.output<typeof patchBody>): string[] {
  if (body.ports && (body.add_ports || body.remove_ports))
    throw badRequest(
      "'ports' replaces the group's ports; it cannot be combined with 'add_ports' or 'remove_ports'.",
    );
  if (body.ports) return body.ports.map((p) => p.name);
  const current = l.ports.map((p) => p.name);
  for (const p of body.add_ports ?? []) {
    if (current.includes(p.name))
      throw badRequest(`Port '${p.name}' is already in link aggregation group '${l.name}'.`, p.name);
  }
  const removed = new Set((body.remove_ports ?? []).map((p) => p.name));
  for (const p of removed) {
    if (!current.includes(p))
      throw badRequest(`Port '${p}' is not in link aggregation group '${l.name}'.`, p);
  }
  return [...current.filter((p) => !removed.has(p)), ...(body.add_ports ?? []).map((p) => p.name)];
}

export const updateLinkAggregationGroups: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, state.network.lags, "Link aggregation group") ?? [];
  const raw = bodyObject(req, "LinkAggregationGroupPatch");
  rejectReadOnly(raw, [...READ_ONLY, "name"], "LinkAggregationGroupPatch");
  const body = parseBody(patchBody, raw, "LinkAggregationGroupPatch", req.version);
  const next = targets.map((l) => {
    const names = nextPorts(l, body);
    if (names.length === 0)
      throw badRequest(
        `Link aggregation group '${l.name}' needs at least one port; delete the group instead.`,
        l.name,
      );
    const connectors = checkPorts(state, l.name, names);
    return { ...l, ports: toPorts(names, connectors), port_speed: Math.min(...connectors.map(portSpeed)) };
  });
  for (const l of next) state.network.lags.set(l.name, l);
  return ok(next.map(view(req)));
};

export const deleteLinkAggregationGroups: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, state.network.lags, "Link aggregation group") ?? [];
  for (const l of targets) {
    const users = [...state.network.subnets.values()].filter((s) => s.lag === l.name);
    if (users.length > 0)
      throw badRequest(
        `Subnets run on link aggregation group '${l.name}' (${users.map((s) => s.name).join(", ")}); move or delete them first.`,
        l.name,
      );
  }
  for (const l of targets) state.network.lags.delete(l.name);
  return EMPTY;
};
