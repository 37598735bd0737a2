/**
 * Whether a client (an IPv4 address and/or a host name) matches a rule's `client`: `*` (anyone), one address, a
 * subnet in CIDR notation, or a host name pattern with `*` and `?` wildcards (case-insensitive, as DNS names
 * are). Netgroups (`@name`) need the array's NIS/LDAP, which the simulator does not have: they match nobody.
 */

function ipv4(text: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (m === null) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return parts.reduce((acc, p) => acc * 256 + p, 0);
}

export interface Client {
  ip?: string;
  hostname?: string;
}

/** Refuses a `client` a rule cannot hold; undefined when it is valid. */
export function clientProblem(pattern: string): string | undefined {
  if (pattern === "*" || pattern.startsWith("@")) return undefined;
  const cidr = /^([^/]+)\/(\d{1,2})$/.exec(pattern);
  if (cidr) {
    if (ipv4(cidr[1] as string) === undefined) return `'${pattern}' is not an IPv4 subnet`;
    if (Number(cidr[2]) > 32) return `'${pattern}' has a prefix longer than 32 bits`;
    return undefined;
  }
  if (/^[\d.]+$/.test(pattern))
    return ipv4(pattern) === undefined ? `'${pattern}' is not an IPv4 address` : undefined;
  if (!/^[A-Za-z0-9*?]([A-Za-z0-9*?.-]*[A-Za-z0-9*?])?$/.test(pattern))
    return `'${pattern}' is not an address, a subnet, a host name pattern, a netgroup or '*'`;
  return undefined;
}

function globToRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${body}$`, "i");
}

export function clientMatches(pattern: string, client: Client): boolean {
  if (pattern === "*") return true;
  if (pattern.startsWith("@")) return false;
  const ip = client.ip === undefined ? undefined : ipv4(client.ip);
  const cidr = /^([^/]+)\/(\d{1,2})$/.exec(pattern);
  if (cidr) {
    const net = ipv4(cidr[1] as string);
    const bits = Number(cidr[2]);
    if (ip === undefined || net === undefined) return false;
    const size = 2 ** (32 - bits);
    return Math.floor(ip / size) === Math.floor(net / size);
  }
  const exact = ipv4(pattern);
  if (exact !== undefined) return ip === exact;
  return client.hostname !== undefined && globToRegExp(pattern).test(client.hostname);
}
