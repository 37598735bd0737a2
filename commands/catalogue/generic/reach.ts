/**
 * Would this change cut the bot off from the array? The bot knows the host it reaches each array at; a network
 * object that carries that address (an interface with it, a subnet whose prefix holds it) or, when the bot
 * uses a host name, the DNS settings, are called out in the impact with the address.
 */
import { isIP } from "node:net";
import type { NounSpec } from "../spec.js";
import { type Item, valueAt } from "./values.js";

function ipv4(s: string): number | undefined {
  const parts = s.split(".").map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + p, 0);
}

/** Whether IPv4 `host` lies in `prefix` ("10.21.100.0/24"). */
export function inPrefix(host: string, prefix: string): boolean {
  const [net, bits] = prefix.split("/");
  const h = ipv4(host);
  const n = ipv4(net ?? "");
  const len = Number(bits);
  if (h === undefined || n === undefined || !Number.isInteger(len) || len < 0 || len > 32) return false;
  const size = 2 ** (32 - len);
  return Math.floor(h / size) === Math.floor(n / size);
}

/**
 * The warning for a change to `before` (the object as it is), or undefined when the bot does not reach the
 * array through it. Without a known host, the catalogue's general caution stands.
 */
export function reachWarning(
  spec: NounSpec,
  before: Item | undefined,
  host: string | undefined,
  array: string,
): string | undefined {
  if (!spec.reach) return spec.cutsOff;
  if (!host) return spec.cutsOff;
  const name = String(before?.["name"] ?? spec.noun);
  switch (spec.reach) {
    case "address":
      return before && valueAt(before, "address") === host
        ? `The bot reaches ${array} at ${host}, the address of ${name}: this change can cut it off from the array.`
        : undefined;
    case "prefix": {
      const prefix = before ? valueAt(before, "prefix") : undefined;
      return typeof prefix === "string" && inPrefix(host, prefix)
        ? `The bot reaches ${array} at ${host}, inside ${name} (${prefix}): this change can cut it off from the array.`
        : undefined;
    }
    case "hostname":
      return isIP(host) === 0
        ? `The bot reaches ${array} by the name ${host}: wrong name servers can cut it off from the array.`
        : undefined;
  }
}
