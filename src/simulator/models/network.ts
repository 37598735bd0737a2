/**
 * Addresses and prefixes for subnets and network interfaces: an interface belongs to the subnet whose prefix
 * holds its address, and takes that subnet's gateway, netmask, MTU and VLAN.
 */
import { isIPv4, isIPv6 } from "node:net";

export interface Prefix {
  family: 4 | 6;
  /** The network address as a number of `bits` bits. */
  network: bigint;
  length: number;
  bits: 32 | 128;
}

function v4(address: string): bigint {
  return address.split(".").reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function v6(address: string): bigint {
  const [head = "", tail] = address.split("::");
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const h = groups(head);
  const t = tail === undefined ? [] : groups(tail);
  const fill = tail === undefined ? [] : Array<string>(8 - h.length - t.length).fill("0");
  return [...h, ...fill, ...t].reduce((acc, g) => (acc << 16n) | BigInt(Number.parseInt(g, 16)), 0n);
}

/** The address as a number and its family, or undefined when it is not an IPv4 or IPv6 address. */
export function parseAddress(address: string): { family: 4 | 6; value: bigint } | undefined {
  if (isIPv4(address)) return { family: 4, value: v4(address) };
  if (isIPv6(address) && !address.includes(".")) return { family: 6, value: v6(address) };
  return undefined;
}

/** `10.21.100.0/24` or `fd00::/64`; undefined when malformed. Host bits are cleared. */
export function parsePrefix(prefix: string): Prefix | undefined {
  const [addr = "", len, ...rest] = prefix.split("/");
  if (len === undefined || rest.length > 0 || !/^\d{1,3}$/.test(len)) return undefined;
  const parsed = parseAddress(addr);
  if (!parsed) return undefined;
  const bits = parsed.family === 4 ? 32 : 128;
  const length = Number(len);
  if (length < 1 || length > bits) return undefined;
  const mask = ((1n << BigInt(length)) - 1n) << BigInt(bits - length);
  return { family: parsed.family, network: parsed.value & mask, length, bits };
}

export function contains(prefix: Prefix, address: string): boolean {
  const a = parseAddress(address);
  if (!a || a.family !== prefix.family) return false;
  const shift = BigInt(prefix.bits - prefix.length);
  return a.value >> shift === prefix.network >> shift;
}

export function overlaps(a: Prefix, b: Prefix): boolean {
  if (a.family !== b.family) return false;
  const shift = BigInt(a.bits - Math.min(a.length, b.length));
  return a.network >> shift === b.network >> shift;
}

/** The dotted netmask of an IPv4 prefix; IPv6 interfaces carry the prefix length instead. */
export function netmaskOf(prefix: Prefix): string {
  if (prefix.family === 6) return String(prefix.length);
  const mask = ((1n << BigInt(prefix.length)) - 1n) << BigInt(32 - prefix.length);
  return [24n, 16n, 8n, 0n].map((s) => String((mask >> s) & 255n)).join(".");
}

export const MTU_MIN = 1280;
export const MTU_MAX = 9216;
/** Subnet.mtu "1500 by default" (SDK docs). */
export const MTU_DEFAULT = 1500;

export interface SubnetRec {
  id: string;
  name: string;
  prefix: string;
  gateway: string | null;
  mtu: number;
  vlan: number;
  enabled: boolean;
  /** Name of the link aggregation group the subnet runs on. */
  lag: string | null;
}

export interface NetworkInterfaceRec {
  id: string;
  name: string;
  address: string;
  services: string[];
  type: "vip";
  enabled: boolean;
  /** Name of the subnet whose prefix holds the address. */
  subnet: string;
}

export interface LagPort {
  name: string;
  id: string | null;
}

export interface LagRec {
  id: string;
  name: string;
  ports: LagPort[];
  /** Speed of one port, bits per second. */
  port_speed: number;
  mac_address: string;
  status: "healthy" | "degraded" | "unhealthy";
}

export interface NetworkState {
  subnets: Map<string, SubnetRec>;
  interfaces: Map<string, NetworkInterfaceRec>;
  lags: Map<string, LagRec>;
}

export function emptyNetwork(): NetworkState {
  return { subnets: new Map(), interfaces: new Map(), lags: new Map() };
}

function reference(name: string, id: string | null, resourceType: string) {
  return { name, id, resource_type: resourceType };
}

export function renderLag(l: LagRec): Record<string, unknown> {
  return {
    name: l.name,
    id: l.id,
    lag_speed: l.port_speed * l.ports.length,
    mac_address: l.mac_address,
    ports: l.ports.map((p) => reference(p.name, p.id, "hardware")),
    port_speed: l.port_speed,
    status: l.status,
  };
}

/** A subnet lists the interfaces placed in it, and offers the services they provide. */
export function renderSubnet(s: SubnetRec, net: NetworkState): Record<string, unknown> {
  const members = [...net.interfaces.values()].filter((i) => i.subnet === s.name);
  const lag = s.lag === null ? null : net.lags.get(s.lag);
  return {
    name: s.name,
    id: s.id,
    enabled: s.enabled,
    gateway: s.gateway,
    interfaces: members.map((i) => reference(i.name, i.id, "network-interfaces")),
    link_aggregation_group: lag ? reference(lag.name, lag.id, "link-aggregation-groups") : null,
    mtu: s.mtu,
    prefix: s.prefix,
    services: [...new Set(members.flatMap((i) => i.services))].sort(),
    vlan: s.vlan,
  };
}

/** Gateway, netmask, MTU and VLAN come from the subnet at read time, so a subnet change shows at once. */
export function renderInterface(i: NetworkInterfaceRec, net: NetworkState): Record<string, unknown> {
  const s = net.subnets.get(i.subnet);
  const prefix = s ? parsePrefix(s.prefix) : undefined;
  return {
    name: i.name,
    id: i.id,
    address: i.address,
    enabled: i.enabled,
    gateway: s?.gateway ?? null,
    mtu: s?.mtu ?? MTU_DEFAULT,
    netmask: prefix ? netmaskOf(prefix) : null,
    services: [...i.services],
    subnet: s ? reference(s.name, s.id, "subnets") : null,
    type: i.type,
    vlan: s?.vlan ?? 0,
  };
}
