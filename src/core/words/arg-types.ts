/**
 * zod building blocks for command arguments. The parser hands over strings (and booleans for flags); these
 * schemas turn them into typed values with messages a person can act on.
 */
import { isIP } from "node:net";
import { z } from "zod";
import { type NameKind, nameProblem } from "../../rest-spec/names.js";
import {
  countWire,
  DURATION_WIRE,
  nameWire,
  sizeWire,
  sortWire,
  textWire,
  VALUE_WIRES,
  wired,
} from "./arg-wire.js";
import { countOf, LARGEST_SIZE_TEXT, parseDuration, parseSize, sizeTooLarge } from "./units.js";
import { userText } from "./user-text.js";

export const SIZE_HELP =
  "sizes take binary units: 500G, 1.5T, 2TiB, 10GB (G = GiB = 2^30 bytes: 10GB is 10,737,418,240 bytes, not 10^10), or B for bytes (4096B)";

/** A typed number with no unit: almost always someone who meant gigabytes, never silently bytes. */
const BARE_NUMBER = /^\s*(\d+(?:\.\d+)?)\s*$/;

function hasControlChars(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/**
 * An object name: no commas (they split list parameters on the wire) and no control characters. A name for a
 * new object (`kind` given) must also be one arrays take for that kind (src/rest-spec/names.ts), so a name no
 * array accepts is refused here, before anything is sent.
 */
export function objectName(what = "name", kind?: NameKind) {
  const base = z
    .string()
    .trim()
    .min(1, `the ${what} is empty`)
    .max(255, `the ${what} is longer than 255 characters`)
    .refine((s) => !s.includes(","), `a ${what} cannot contain a comma`)
    .refine((s) => !hasControlChars(s), `the ${what} contains control characters`);
  if (kind === undefined) return wired(base, textWire(255, false));
  const named = base.superRefine((s, ctx) => {
    const problem = nameProblem(s, kind);
    if (problem) ctx.addIssue({ code: "custom", message: `arrays take no such ${what}: use ${problem}` });
  });
  return wired(named, nameWire(kind));
}

/** The checks of a typed size once it has a unit (or is a number of bytes from the bot itself). */
function checkedSize(v: string | number, min: number, ctx: z.RefinementCtx): number {
  const bytes = typeof v === "number" ? v : parseSize(v);
  if (bytes === undefined || !Number.isSafeInteger(bytes)) {
    const text = `\`${userText(String(v))}\``;
    ctx.addIssue({
      code: "custom",
      message:
        typeof v === "string" && sizeTooLarge(v)
          ? `${text} is too large: the largest size is ${LARGEST_SIZE_TEXT} (2^53 bytes)`
          : `${text} is not a size; ${SIZE_HELP}`,
    });
    return z.NEVER;
  }
  if (bytes < min) {
    ctx.addIssue({ code: "custom", message: `the size must be at least ${countOf(min, "byte")}` });
    return z.NEVER;
  }
  return bytes;
}

/**
 * A size in bytes from "500G", "1.5T", "2TiB", "10GB" or "4096B". Typed text needs a unit: `500` is refused
 * with "did you mean 500G?" (only 0 needs none). Numbers (not text) are bytes: they come from the bot itself.
 */
export function size(opts: { min?: number } = {}) {
  const min = opts.min ?? 0;
  const schema = z.union([z.number(), z.string()]).transform((v, ctx) => {
    const bare = typeof v === "string" ? BARE_NUMBER.exec(v) : null;
    if (bare && Number(bare[1]) !== 0) {
      const n = bare[1];
      ctx.addIssue({
        code: "custom",
        message: `\`${n}\` has no unit; did you mean ${n}G? Sizes need a unit: ${n}G, ${n}T, or ${n}B for bytes`,
      });
      return z.NEVER;
    }
    return checkedSize(v, min, ctx);
  });
  return wired(schema, sizeWire(min));
}

/** A number typed without a unit, left for the command to answer beside the size it would change. */
export interface UnitlessSize {
  unitless: number;
}

/**
 * As `size`, but a unitless number passes as `{ unitless }`, so a command that knows the current size can
 * suggest the unit that keeps it near (`fs resize home 30` on a 20 TiB file system → 30T), never guess one.
 */
export function sizeNear(opts: { min?: number } = {}) {
  const min = opts.min ?? 0;
  const schema = z.union([z.number(), z.string()]).transform((v, ctx): number | UnitlessSize => {
    const bare = typeof v === "string" ? BARE_NUMBER.exec(v) : null;
    if (bare && Number(bare[1]) !== 0) return { unitless: Number(bare[1]) };
    return checkedSize(v, min, ctx);
  });
  // A JSON number is bytes (a face's client means bytes by it); a unitless word stays a person's.
  return wired(schema, sizeWire(min));
}

/** A duration in milliseconds from "30m", "24h", "7d". */
export function duration() {
  const schema = z.union([z.number(), z.string()]).transform((v, ctx) => {
    const ms = typeof v === "number" ? v : parseDuration(v);
    if (ms === undefined || ms <= 0) {
      ctx.addIssue({
        code: "custom",
        message: `\`${userText(String(v))}\` is not a duration; use e.g. 30m, 24h, 7d`,
      });
      return z.NEVER;
    }
    return ms;
  });
  return wired(schema, DURATION_WIRE);
}

/** A whole number within bounds. */
export function count(opts: { min?: number; max?: number } = {}) {
  const min = opts.min ?? 1;
  const max = opts.max ?? 100_000;
  const schema = z.union([z.number(), z.string()]).transform((v, ctx) => {
    const n = typeof v === "number" ? v : /^\d+$/.test(v.trim()) ? Number(v.trim()) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      ctx.addIssue({
        code: "custom",
        message: `\`${userText(String(v))}\` is not a whole number from ${min} to ${max}`,
      });
      return z.NEVER;
    }
    return n;
  });
  return wired(schema, countWire(min, max));
}

/** A switch: `--nfs` is true, `--no-nfs` is false, absent is undefined. */
export function flag() {
  return z.boolean().optional();
}

/**
 * A sort key from a fixed list, with "-" appended for descending (the array's own convention): `used-`.
 * `fields` maps what people type to the array's field name.
 */
export function sortKey(fields: Record<string, string>) {
  const names = Object.keys(fields);
  const schema = z.string().transform((v, ctx) => {
    const desc = v.endsWith("-");
    const key = desc ? v.slice(0, -1) : v;
    const field = Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (field === undefined) {
      ctx.addIssue({
        code: "custom",
        message: `cannot sort by \`${userText(v)}\`; use one of ${names.join(", ")} (append - for descending, e.g. ${names[0]}-)`,
      });
      return z.NEVER;
    }
    return { key, field, descending: desc };
  });
  return wired(schema, sortWire(names));
}

/** A name pattern where `*` matches anything; everything else is literal. */
export function namePattern() {
  const schema = z
    .string()
    .trim()
    .min(1, "the pattern is empty")
    .max(255, "the pattern is longer than 255 characters")
    .refine((s) => !hasControlChars(s), "the pattern contains control characters");
  return wired(schema, textWire(255, true));
}

/**
 * The kinds of value an array setting holds, checked before any card is shown (a name server of 10.21.0.999
 * never reaches a confirmation). The catalogue names them per field (commands/catalogue/generic/fields.ts).
 */
export type ValueType = "ip" | "cidr" | "host" | "email" | "port" | "vlan" | "mtu";

/** Whole-number kinds: their bounds. */
export const VALUE_RANGES: Readonly<Partial<Record<ValueType, { min: number; max: number }>>> = {
  port: { min: 1, max: 65_535 },
  vlan: { min: 0, max: 4094 },
  mtu: { min: 1280, max: 9216 },
};

export const VALUE_HELP: Readonly<Record<ValueType, string>> = {
  ip: "an IP address (10.21.0.53 or 2001:db8::53)",
  cidr: "an address prefix (10.21.0.0/24)",
  host: "a host name or IP address, :port optional (smtp.example.com, 10.21.0.25:25)",
  email: "an e-mail address (storage-oncall@example.com)",
  port: "a port from 1 to 65535",
  vlan: "a VLAN id from 0 (none) to 4094",
  mtu: "an MTU from 1280 to 9216",
};

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i;

function ipProblem(v: string): string | undefined {
  if (isIP(v) !== 0) return undefined;
  if (/^\d+(\.\d+){3}$/.test(v)) {
    const bad = v.split(".").find((o) => Number(o) > 255 || (o.length > 1 && o.startsWith("0")));
    return bad === undefined
      ? "is not an IP address"
      : `is not an IP address: ${bad} is not a number from 0 to 255`;
  }
  return "is not an IP address";
}

function hostProblem(text: string): string | undefined {
  // host, host:port, [v6]:port, or a bare IPv6 address (two colons or more, no port).
  let host = text;
  let port: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d*))?$/.exec(text);
  if (bracketed) {
    host = bracketed[1] ?? "";
    port = bracketed[2];
  } else if (text.split(":").length === 2) {
    [host = "", port] = text.split(":");
  }
  if (port !== undefined && !/^\d+$/.test(port)) return `has port \`${userText(port)}\`, not a number`;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535))
    return `has port ${port}, not from 1 to 65535`;
  if (isIP(host) !== 0) return undefined;
  // All digits and dots is meant as an IPv4 address: say what is wrong with it rather than take it as a name.
  if (/^[\d.]+$/.test(host)) return ipProblem(host);
  if (
    host.length > 253 ||
    !host
      .replace(/\.$/, "")
      .split(".")
      .every((l) => LABEL.test(l))
  )
    return "is not a host name (letters, digits and -, between dots) or IP address";
  return undefined;
}

function problemOf(type: ValueType, v: string): string | undefined {
  switch (type) {
    case "ip":
      return ipProblem(v);
    case "cidr": {
      const [addr = "", bits, ...more] = v.split("/");
      if (bits === undefined || more.length)
        return "is not an address prefix; write address/bits (10.21.0.0/24)";
      const ip = ipProblem(addr);
      if (ip) return `has an address that ${ip}`;
      const max = isIP(addr) === 6 ? 128 : 32;
      if (!/^\d+$/.test(bits) || Number(bits) > max)
        return `has /${bits}, not a prefix length from 0 to ${max}`;
      return undefined;
    }
    case "host":
      return hostProblem(v);
    case "email": {
      const at = v.lastIndexOf("@");
      const local = v.slice(0, at);
      if (at < 1 || !/^[^\s@"(),:;<>[\]\\]+$/.test(local) || local.length > 64)
        return "is not an e-mail address (name@example.com)";
      const domain = v.slice(at + 1);
      return hostProblem(domain) || !domain.includes(".")
        ? "is not an e-mail address (name@example.com)"
        : undefined;
    }
    default: {
      const range = VALUE_RANGES[type];
      if (!range) return undefined;
      const n = /^\d+$/.test(v) ? Number(v) : Number.NaN;
      return Number.isSafeInteger(n) && n >= range.min && n <= range.max
        ? undefined
        : `is not ${VALUE_HELP[type]}`;
    }
  }
}

/** A value of one of the kinds above: text trimmed (and numbers for the whole-number kinds), or a clear refusal. */
export function typedValue(type: ValueType): z.ZodType<string | number> {
  const schema = z.union([z.number(), z.string()]).transform((raw, ctx) => {
    const v = String(raw).trim();
    const problem = problemOf(type, v);
    if (problem !== undefined) {
      ctx.addIssue({
        code: "custom",
        message: `\`${userText(v)}\` ${problem}; expected ${VALUE_HELP[type]}`,
      });
      return z.NEVER;
    }
    return VALUE_RANGES[type] ? Number(v) : v;
  });
  const range = VALUE_RANGES[type];
  return wired(
    schema,
    range ? countWire(range.min, range.max) : VALUE_WIRES[type as keyof typeof VALUE_WIRES],
  );
}
