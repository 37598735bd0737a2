/**
 * A yes/no check that a JSON value already is what a read schema parses it to, built from zod's own JSON Schema
 * export (`z.toJSONSchema`, public API), never from zod's internals. When it says yes, zod's parse would return a
 * copy equal to the value, so the value is used as it is; when it says no, zod parses and names the field
 * (response.ts), so the errors are zod's. Parsing a 12-item page with zod cost about 10 µs, most of the pool's
 * overhead over a bare request (issue 27); this check costs a fraction of that.
 *
 * Only what maps one to one is compiled: loose objects (unknown keys pass, as in zod), required and optional
 * fields, strings, finite numbers, booleans, lists and string enums. A schema using anything else (defaults,
 * integer bounds, unions, nulls, records, strip or strict objects) gets no check, and zod alone validates it.
 * JSON Schema cannot show refinements, preprocessing or pipes at all, so response.ts asks for checks only for
 * the read schemas of schemas.ts, which stay plain; test/flashblade/json-check.test.ts holds them to that and
 * every one of them to zod on generated values.
 */
import { z } from "zod";

export type JsonCheck = (value: unknown) => boolean;

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => v !== null && typeof v === "object" && !Array.isArray(v);
const only = (node: Node, keys: readonly string[]) => Object.keys(node).every((k) => keys.includes(k));

function compile(node: unknown): JsonCheck | undefined {
  if (!isNode(node)) return undefined;
  switch (node["type"]) {
    case "string": {
      const values = node["enum"];
      if (values === undefined) return only(node, ["type"]) ? (v) => typeof v === "string" : undefined;
      if (!only(node, ["type", "enum"]) || !Array.isArray(values)) return undefined;
      const allowed = new Set(values);
      return (v) => typeof v === "string" && allowed.has(v);
    }
    case "number":
      return only(node, ["type"]) ? (v) => typeof v === "number" && Number.isFinite(v) : undefined;
    case "boolean":
      return only(node, ["type"]) ? (v) => typeof v === "boolean" : undefined;
    case "array": {
      const item = only(node, ["type", "items"]) ? compile(node["items"]) : undefined;
      return item && ((v) => Array.isArray(v) && v.every(item));
    }
    case "object":
      return compileObject(node);
    default:
      return undefined;
  }
}

function compileObject(node: Node): JsonCheck | undefined {
  // Loose only: `additionalProperties: {}`. A strip or strict object's parse differs from its input.
  const extra = node["additionalProperties"];
  if (!isNode(extra) || Object.keys(extra).length > 0) return undefined;
  if (!only(node, ["type", "properties", "required", "additionalProperties"])) return undefined;
  const props = node["properties"] ?? {};
  const required = new Set((node["required"] as unknown[] | undefined) ?? []);
  if (!isNode(props)) return undefined;
  const fields: [string, JsonCheck, boolean][] = [];
  for (const [key, sub] of Object.entries(props)) {
    const check = compile(sub);
    if (!check) return undefined;
    fields.push([key, check, required.has(key)]);
  }
  return (v) => {
    // zod leaves an own `__proto__` out of its copy: such a value goes to zod.
    if (!isNode(v) || Object.hasOwn(v, "__proto__")) return false;
    for (const [key, check, isRequired] of fields) {
      const x = v[key];
      if (x === undefined ? isRequired : !check(x)) return false;
    }
    return true;
  };
}

/** The check for `schema`, or undefined when it uses something the check does not compile. */
export function jsonCheckOf(schema: z.ZodType): JsonCheck | undefined {
  let json: unknown;
  try {
    json = z.toJSONSchema(schema, { io: "input", unrepresentable: "throw" });
  } catch {
    return undefined;
  }
  if (!isNode(json)) return undefined;
  const { $schema: _, ...node } = json;
  return compile(node);
}
