/**
 * Values generated from a JSON Schema, the subset our tools' input schemas use: types (one or several), enum, const,
 * anyOf, string length, pattern and format (ipv4, ipv6, hostname, email), integer and number bounds, booleans,
 * arrays (bounds, unique items), objects with required keys, maps (`additionalProperties` a schema), or any JSON values when only
 * `additionalProperties: true` is said. A keyword it does not know fails the test, so a schema cannot quietly offer
 * something the generator never tries.
 */
import fc from "fast-check";

export type JsonSchema = Record<string, unknown>;

const KNOWN = new Set([
  "type",
  "enum",
  "const",
  "propertyNames",
  "anyOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "minItems",
  "maxItems",
  "uniqueItems",
  "description",
  "default",
  "examples",
]);

/** Free text is kept short: long values add time, not cases (lengths have their own tests). */
const FREE_TEXT_MAX = 24;

const FORMATS: Record<string, () => fc.Arbitrary<string>> = {
  ipv4: () => fc.ipV4(),
  ipv6: () => fc.ipV6(),
  hostname: () => fc.domain(),
  email: () => fc.emailAddress(),
};

function stringOf(s: JsonSchema): fc.Arbitrary<string> {
  const min = (s.minLength as number | undefined) ?? 0;
  const max = (s.maxLength as number | undefined) ?? Number.POSITIVE_INFINITY;
  const fits = (v: string) => [...v].length >= min && [...v].length <= max;
  if (typeof s.format === "string") {
    const make = FORMATS[s.format];
    if (!make) throw new Error(`no generator for format ${s.format}`);
    return make().filter(fits);
  }
  if (typeof s.pattern === "string") return fc.stringMatching(new RegExp(s.pattern, "u")).filter(fits);
  return fc.string({
    unit: "binary",
    minLength: min,
    maxLength: Math.max(min, Math.min(max, FREE_TEXT_MAX)),
  });
}

function numberOf(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = (s.minimum as number | undefined) ?? -(2 ** 31);
  const max = (s.maximum as number | undefined) ?? 2 ** 31;
  if (!integer) return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  return fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number);
}

export function arbitraryOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  for (const key of Object.keys(schema))
    if (!KNOWN.has(key)) throw new Error(`no generator for the keyword ${key}`);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.anyOf)) {
    const { anyOf, ...rest } = schema;
    return fc.oneof(...(anyOf as JsonSchema[]).map((alt) => arbitraryOf({ ...rest, ...alt })));
  }
  if (Array.isArray(schema.type))
    return fc.oneof(...(schema.type as string[]).map((type) => arbitraryOf({ ...schema, type })));
  switch (schema.type) {
    case "string":
      return stringOf(schema);
    case "integer":
      return numberOf(schema, true);
    case "number":
      return numberOf(schema, false);
    case "boolean":
      return fc.boolean();
    case "array": {
      const item = arbitraryOf(schema.items as JsonSchema);
      const bounds = {
        minLength: (schema.minItems as number | undefined) ?? 0,
        maxLength: (schema.maxItems as number | undefined) ?? 8,
      };
      return schema.uniqueItems === true ? fc.uniqueArray(item, bounds) : fc.array(item, bounds);
    }
    case "object": {
      if (schema.properties === undefined && schema.additionalProperties === true)
        return fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
      // A map (zod's record): keys as `propertyNames` says (strings here), values of one schema.
      if (schema.properties === undefined && typeof schema.additionalProperties === "object")
        return fc.dictionary(
          arbitraryOf(
            (schema.propertyNames as JsonSchema | undefined) ?? { type: "string" },
          ) as fc.Arbitrary<string>,
          arbitraryOf(schema.additionalProperties as JsonSchema),
          { maxKeys: 4 },
        );
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const arbs = Object.fromEntries(Object.entries(props).map(([k, p]) => [k, arbitraryOf(p)]));
      return fc.record(arbs, { requiredKeys: (schema.required as string[] | undefined) ?? [] });
    }
    default:
      throw new Error(`no generator for the type ${JSON.stringify(schema.type)}`);
  }
}
