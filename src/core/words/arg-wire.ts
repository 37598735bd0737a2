/**
 * What an argument takes from a face that sends JSON values (MCP): the exact JSON Schema of what the parser
 * accepts, and how a JSON value becomes the word the parser reads. zod's own JSON Schema of a transform is only
 * its input type (`number | string`), which offers values the transform then refuses; the argument builders in
 * arg-types.ts declare here what they really take, so a tool's schema never offers what its parser refuses.
 */
import type { z } from "zod";
import { NAME_RULES, type NameKind } from "../../rest-spec/names.js";

export interface ArgWire {
  /** Replaces zod's JSON Schema of the argument (a description given with `.describe()` is kept). */
  json: Record<string, unknown>;
  /** The word for a JSON value when `String(value)` would read differently (a number of bytes → `123B`). */
  word?: (value: unknown) => string | undefined;
}

/**
 * Keyed by the schema's definition: `.describe()` clones a schema with the same definition (the declaration
 * holds), while `.regex()` or `.refine()` makes a new one (a narrower schema than declared: zod's own JSON
 * Schema, or a declaration of its own, applies).
 */
const declared = new WeakMap<object, ArgWire>();

export function wired<T extends z.ZodType>(schema: T, wire: ArgWire): T {
  declared.set(schema._zod.def, wire);
  return schema;
}

/** The declaration of exactly this schema (or a described clone of it). */
export function declaredWire(schema: z.core.$ZodType): ArgWire | undefined {
  return declared.get(schema._zod.def);
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
}

/** The declaration under optional/default wrappers and extra transforms, if any. */
export function wireOf(schema: z.ZodType | undefined): ArgWire | undefined {
  let s = schema;
  for (let depth = 0; s && depth < 8; depth++) {
    const found = declared.get(s._zod.def);
    if (found) return found;
    const def = s._zod.def as Def;
    s = def.innerType ?? (def.type === "pipe" ? def.in : undefined);
  }
  return undefined;
}

const MAX_BYTES = Number.MAX_SAFE_INTEGER;

/** Control characters (Unicode's Cc), which no name or text argument takes. */
const CC = "\\u0000-\\u001f\\u007f-\\u009f";

/**
 * A size as text with a unit, kept to what every size argument accepts exactly: a whole or 2-decimal number of
 * K, M or G (at most 6 digits), of T (up to 7999.99: the largest size is 8191T, 2^53 bytes), of P (up to 7.99),
 * or of bytes (B, at most 15 digits). Starting with 1-9 keeps it at least one byte; `0` is offered only where no
 * minimum applies.
 */
const DECIMALS = "(\\.[0-9]{1,2})?";
const SIZE_WITH_UNIT = [
  `[1-9][0-9]{0,5}${DECIMALS}[KMGkmg](i?[Bb])?`,
  `([1-9][0-9]{0,2}|[1-7][0-9]{3})${DECIMALS}[Tt](i?[Bb])?`,
  `[1-7]${DECIMALS}[Pp](i?[Bb])?`,
  "[1-9][0-9]{0,14}[Bb]",
].join("|");

/** A size: a JSON number is bytes; text needs a unit. */
export function sizeWire(min: number): ArgWire {
  const text =
    min <= 1 ? { type: "string", pattern: `^(${min === 0 ? "0|" : ""}${SIZE_WITH_UNIT})$` } : undefined;
  return {
    json: {
      anyOf: [
        { type: "integer", minimum: min, maximum: MAX_BYTES, description: "bytes" },
        ...(text ? [{ ...text, examples: ["500G", "1.5T", "2TiB", "4096B"] }] : []),
      ],
    },
    word: (v) => (typeof v === "number" ? `${v}B` : undefined),
  };
}

/**
 * A duration as text: 1 to 99 seconds, minutes, hours or days, which every command taking a plain duration
 * accepts (some cap it, e.g. `fs top --since` at 365d).
 */
export const DURATION_WIRE: ArgWire = {
  json: { type: "string", pattern: "^[1-9][0-9]?[smhd]$", examples: ["30m", "24h", "7d"] },
};

/** A duration text from `min` to `max`, as the alternatives given (commands with a window of their own). */
export function windowWire(pattern: string, examples: readonly string[]): ArgWire {
  return { json: { type: "string", pattern: `^(${pattern})$`, examples: [...examples] } };
}

export function countWire(min: number, max: number): ArgWire {
  return { json: { type: "integer", minimum: min, maximum: max } };
}

/** Text that is not empty once trimmed and holds no control characters (nor commas, for names). */
export function textWire(maxLength: number, comma: boolean): ArgWire {
  const ok = comma ? `[^${CC}]` : `[^,${CC}]`;
  const solid = comma ? `[^\\s${CC}]` : `[^,\\s${CC}]`;
  return { json: { type: "string", minLength: 1, maxLength, pattern: `^${ok}*${solid}${ok}*$` } };
}

/** One item of a comma-separated list once trimmed: no comma, no control character, no blank at either end. */
export const ITEM = `[^,\\s${CC}]([^,${CC}]{0,61}[^,\\s${CC}])?`;

/** A comma-separated list of items matching `item` (a pattern without commas or anchors). */
export function listWire(item: string, max = 64): ArgWire {
  return { json: { type: "string", pattern: `^(${item})(,(${item})){0,${max - 1}}$` } };
}

/** `<account>/<user>` of an object store user, each part as arrays take it (src/rest-spec/names.ts). */
export const ACCOUNT_USER_WIRE: ArgWire = {
  json: {
    type: "string",
    pattern: `^[A-Za-z0-9][A-Za-z0-9-]{0,62}/[^,/\\s${CC}]([^,/${CC}]{0,61}[^,/\\s${CC}])?$`,
    examples: ["analytics/etl"],
  },
};

/** One of these words. */
export function enumWire(values: readonly string[]): ArgWire {
  return { json: { type: "string", enum: [...values] } };
}

/** A JSON object, sent on as its JSON text. */
export const JSON_OBJECT_WIRE: ArgWire = {
  json: { type: "object", additionalProperties: true },
  word: (v) => (typeof v === "object" && v !== null && !Array.isArray(v) ? JSON.stringify(v) : undefined),
};

/**
 * A name of a new object: the rule arrays apply to that kind (src/rest-spec/names.ts), to the name once trimmed;
 * where a rule lets a part be blank or start or end with one, the schema offers the part without.
 */
export function nameWire(kind: NameKind): ArgWire {
  const solid = `[^,/\\s${CC}]([^,/${CC}]{0,61}[^,/\\s${CC}])?`;
  const pattern =
    kind === "any"
      ? `^${ITEM}$`
      : kind === "object-user"
        ? `^${solid}/${solid}$`
        : NAME_RULES[kind].pattern.source;
  return { json: { type: "string", minLength: 1, maxLength: 255, pattern } };
}

/** A sort key: one of the names, `-` appended for descending. */
export function sortWire(names: readonly string[]): ArgWire {
  return { json: { type: "string", enum: [...names, ...names.map((n) => `${n}-`)] } };
}

const OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])";
const IPV4 = `${OCTET}(\\.${OCTET}){3}`;

const LABEL = "[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?";
/** A host name whose last label starts with a letter (all digits and dots would be read as an IPv4 address). */
const HOST = `(${LABEL}\\.){0,3}[a-z]([a-z0-9-]{0,20}[a-z0-9])?`;

/** One value of each kind as an item of a comma-separated list (a subset: IPv4 only, ports up to 59999). */
export const VALUE_ITEMS = {
  ip: IPV4,
  cidr: `${IPV4}/(3[0-2]|[12]?[0-9])`,
  host: `(${HOST}|${IPV4})`,
  email: `[a-z0-9_-]{1,20}@${LABEL}\\.[a-z]{2,6}`,
  port: "[1-9][0-9]{0,3}|[1-5][0-9]{4}",
  vlan: "[0-9]|[1-9][0-9]{1,2}|[1-3][0-9]{3}|40[0-8][0-9]|409[0-4]",
  mtu: "1[3-9][0-9]{2}|[2-8][0-9]{3}|9[01][0-9]{2}|920[0-9]|921[0-6]",
} as const;

/** The kinds of array setting (arg-types.ts ValueType) as JSON Schema: formats where JSON Schema has one. */
export const VALUE_WIRES = {
  ip: { json: { type: "string", anyOf: [{ format: "ipv4" }, { format: "ipv6" }] } },
  cidr: { json: { type: "string", pattern: `^${IPV4}/(3[0-2]|[12]?[0-9])$`, examples: ["10.21.0.0/24"] } },
  host: { json: { type: "string", anyOf: [{ format: "hostname" }, { format: "ipv4" }] } },
  email: { json: { type: "string", format: "email" } },
} as const satisfies Record<string, ArgWire>;
