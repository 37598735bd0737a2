/**
 * /subnets and /network-interfaces. An interface lives in the subnet whose prefix holds its address and takes
 * that subnet's gateway, netmask, MTU and VLAN; a subnet lists its interfaces and cannot be deleted while it
 * has any; subnets run on a link aggregation group.
 */
import { z } from "zod";
import { bodyObject, type Json, parseBody, referenceByName } from "../models/body.js";
import {
  contains,
  MTU_DEFAULT,
  MTU_MAX,
  MTU_MIN,
  type NetworkInterfaceRec,
  overlaps,
  parseAddress,
  parsePrefix,
  renderInterface,
  renderSubnet,
  type SubnetRec,
} from "../models/network.js";
import type { SimState } from "../state.js";
import { badRequest, type SimRequest } from "../types.js";
import {
  at,
  EMPTY,
  type Handler,
  listing,
  ok,
  preselect,
  requireList,
  selectByNamesOrIds,
} from "./common.js";
import { gateId } from "./generic.js";

function rejectFields(body: Json, fields: readonly string[], why: (f: string) => string): void {
  for (const f of fields) if (f in body) throw badRequest(why(f));
}

const mtu = z.int().min(MTU_MIN).max(MTU_MAX);
const vlan = z.int().min(0).max(4094);

const subnetBody = z
  .strictObject({
    prefix: z.string().min(1),
    gateway: z.string().nullable(),
    mtu,
    vlan,
    enabled: z.boolean(),
    link_aggregation_group: referenceByName,
  })
  .partial();

export function checkSubnet(state: SimState, s: SubnetRec): void {
  const prefix = parsePrefix(s.prefix);
  if (!prefix) throw badRequest(`'${s.prefix}' is not a prefix such as 10.21.100.0/24.`, s.name);
  for (const other of state.network.subnets.values()) {
    const p = other.name === s.name ? undefined : parsePrefix(other.prefix);
    if (p && overlaps(p, prefix))
      throw badRequest(`Prefix ${s.prefix} overlaps subnet '${other.name}' (${other.prefix}).`, s.name);
  }
  if (s.gateway !== null && !contains(prefix, s.gateway))
    throw badRequest(`Gateway ${s.gateway} is not in the subnet's prefix ${s.prefix}.`, s.name);
  if (s.lag !== null && !state.network.lags.has(s.lag))
    throw badRequest(`Link aggregation group '${s.lag}' does not exist.`, s.lag);
  for (const i of state.network.interfaces.values()) {
    if (i.subnet === s.name && !contains(prefix, i.address))
      throw badRequest(
        `Network interface '${i.name}' (${i.address}) would fall outside ${s.prefix}; move it first.`,
        s.name,
      );
  }
}

function subnetView(state: SimState, req: SimRequest) {
  return (s: SubnetRec) => gateId(req, renderSubnet(s, state.network));
}

export const listSubnets: Handler = (req, state) => {
  const subnets = state.network.subnets;
  const items = [...preselect(req, subnets, () => subnets.values())].map(subnetView(state, req));
  return listing(items, req, { noun: "Subnet" });
};

export const createSubnets: Handler = (req, state) => {
  const [name, ...more] = requireList(req, "names");
  if (name === undefined || more.length > 0)
    throw badRequest("Create one subnet at a time: its prefix is its own.");
  if (state.network.subnets.has(name)) throw badRequest(`Subnet '${name}' already exists.`, name);
  const raw = bodyObject(req, "Subnet");
  rejectFields(raw, ["id", "name", "interfaces", "services"], (f) =>
    f === "interfaces" || f === "services"
      ? `'${f}' is read-only in Subnet: it follows the network interfaces placed in the subnet.`
      : `'${f}' cannot be set in the body; name the subnet with the 'names' parameter.`,
  );
  const body = parseBody(subnetBody, raw, "Subnet", req.version);
  if (body.prefix === undefined) throw badRequest("'prefix' is required in Subnet.");
  const lags = [...state.network.lags.keys()];
  const s: SubnetRec = {
    id: state.newId(),
    name,
    prefix: body.prefix,
    gateway: body.gateway ?? null,
    mtu: body.mtu ?? MTU_DEFAULT,
    vlan: body.vlan ?? 0,
    enabled: body.enabled ?? true,
    // With one link aggregation group there is nothing to choose: the subnet runs on it.
    lag: body.link_aggregation_group?.name ?? (lags.length === 1 ? (lags[0] as string) : null),
  };
  checkSubnet(state, s);
  state.network.subnets.set(name, s);
  return ok([subnetView(state, req)(s)]);
};

export const updateSubnets: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, state.network.subnets, "Subnet") ?? [];
  const raw = bodyObject(req, "Subnet");
  rejectFields(raw, ["id", "name", "interfaces", "services"], (f) => `'${f}' cannot be changed in Subnet.`);
  const body = parseBody(subnetBody, raw, "Subnet", req.version);
  const next = targets.map(
    (s): SubnetRec => ({
      ...s,
      prefix: body.prefix ?? s.prefix,
      gateway: body.gateway === undefined ? s.gateway : body.gateway,
      mtu: body.mtu ?? s.mtu,
      vlan: body.vlan ?? s.vlan,
      enabled: body.enabled ?? s.enabled,
      lag: body.link_aggregation_group?.name ?? s.lag,
    }),
  );
  for (const s of next) checkSubnet(state, s);
  for (const s of next) state.network.subnets.set(s.name, s);
  return ok(next.map(subnetView(state, req)));
};

export const deleteSubnets: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, state.network.subnets, "Subnet") ?? [];
  for (const s of targets) {
    const members = [...state.network.interfaces.values()].filter((i) => i.subnet === s.name);
    if (members.length > 0) {
      throw badRequest(
        `Subnet '${s.name}' still has network interfaces (${members.map((i) => i.name).join(", ")}); delete them first.`,
        s.name,
      );
    }
  }
  for (const s of targets) state.network.subnets.delete(s.name);
  return EMPTY;
};

const SERVICES = ["data", "replication", "management", "support"] as const;
const INHERITED = ["gateway", "mtu", "netmask", "vlan", "subnet"] as const;

const interfaceBody = z
  .strictObject({
    address: z.string().min(1),
    services: z.array(z.enum(SERVICES)).min(1),
    type: z.literal("vip"),
    enabled: z.boolean(),
  })
  .partial();

function parseInterfaceBody(req: SimRequest) {
  const raw = bodyObject(req, "NetworkInterface");
  rejectFields(raw, ["id", "name"], (f) => `'${f}' cannot be set in the body; use the 'names' parameter.`);
  rejectFields(
    raw,
    INHERITED,
    (f) =>
      `'${f}' comes from the subnet that holds the interface's address; change the subnet${f === "subnet" ? "'s prefix or the address" : ""} instead.`,
  );
  return parseBody(interfaceBody, raw, "NetworkInterface", req.version);
}

/** The subnet whose prefix holds the address; refused when none does or the address is taken. */
export function placeAddress(state: SimState, address: string, self?: string): SubnetRec {
  if (!parseAddress(address)) throw badRequest(`'${address}' is not an IP address.`, address);
  for (const i of state.network.interfaces.values()) {
    if (i.address === address && i.name !== self)
      throw badRequest(`Address ${address} is already used by network interface '${i.name}'.`, address);
  }
  for (const s of state.network.subnets.values()) {
    const p = parsePrefix(s.prefix);
    if (p && contains(p, address)) return s;
  }
  throw badRequest(
    `No subnet holds address ${address}; create a subnet whose prefix contains it first.`,
    address,
  );
}

/** NetworkInterface names its subnet from 1.9 (Pure's SDK models; before, only the subnet lists it). */
function interfaceView(state: SimState, req: SimRequest) {
  return (i: NetworkInterfaceRec) => {
    const out = gateId(req, renderInterface(i, state.network));
    if (!at(req, "1.9")) delete out["subnet"];
    return out;
  };
}

export const listInterfaces: Handler = (req, state) => {
  const all = state.network.interfaces;
  const items = [...preselect(req, all, () => all.values())].map(interfaceView(state, req));
  return listing(items, req, { noun: "Network interface" });
};

export const createInterfaces: Handler = (req, state) => {
  const [name, ...more] = requireList(req, "names");
  if (name === undefined || more.length > 0)
    throw badRequest("Create one network interface at a time: each has its own address.");
  if (state.network.interfaces.has(name))
    throw badRequest(`Network interface '${name}' already exists.`, name);
  const body = parseInterfaceBody(req);
  if (body.address === undefined) throw badRequest("'address' is required in NetworkInterface.");
  const subnet = placeAddress(state, body.address);
  const rec: NetworkInterfaceRec = {
    id: state.newId(),
    name,
    address: body.address,
    services: body.services ?? ["data"],
    type: "vip",
    enabled: body.enabled ?? true,
    subnet: subnet.name,
  };
  state.network.interfaces.set(name, rec);
  return ok([interfaceView(state, req)(rec)]);
};

export const updateInterfaces: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, state.network.interfaces, "Network interface") ?? [];
  const body = parseInterfaceBody(req);
  if (body.address !== undefined && targets.length > 1)
    throw badRequest("An address belongs to one network interface; select exactly one.");
  const next = targets.map((i): NetworkInterfaceRec => {
    const subnet = body.address === undefined ? i.subnet : placeAddress(state, body.address, i.name).name;
    return {
      ...i,
      address: body.address ?? i.address,
      services: body.services ?? i.services,
      enabled: body.enabled ?? i.enabled,
      subnet,
    };
  });
  for (const i of next) state.network.interfaces.set(i.name, i);
  return ok(next.map(interfaceView(state, req)));
};

export const deleteInterfaces: Handler = (req, state) => {
  const targets = selectByNamesOrIds(req, state.network.interfaces, "Network interface") ?? [];
  for (const i of targets) state.network.interfaces.delete(i.name);
  return EMPTY;
};
