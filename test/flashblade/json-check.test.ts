/**
 * The JSON check (src/flashblade/json-check.ts) agrees with zod on every read schema: it accepts exactly the
 * values zod accepts, and what it accepts is what zod's parse returns. Values are drawn from each schema's own
 * JSON Schema (fields present, absent, of the wrong type, extra keys, an own `__proto__`), so most land near
 * the boundary. An own `__proto__` anywhere is always left to zod, which drops it from its copy. The schemas come from src/flashblade/schemas.ts itself, not from a copy.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { jsonCheckOf } from "../../src/flashblade/json-check.js";
import { validateItems } from "../../src/flashblade/response.js";
import * as schemas from "../../src/flashblade/schemas.js";

type Node = Record<string, unknown>;

const wrong = fc.oneof(
  fc.string(),
  fc.double(),
  fc.boolean(),
  fc.constant(undefined),
  fc.constant([]),
  fc.constant({}),
  fc.constant(null),
);

/** Values shaped by a JSON Schema node, often right, sometimes wrong in one place. */
function valueFor(node: Node, depth = 0): fc.Arbitrary<unknown> {
  const right = ((): fc.Arbitrary<unknown> => {
    switch (node["type"]) {
      case "string":
        return Array.isArray(node["enum"])
          ? fc.oneof(fc.constantFrom(...(node["enum"] as string[])), fc.string())
          : fc.string();
      case "number":
        return fc.double();
      case "boolean":
        return fc.boolean();
      case "array":
        return depth > 3
          ? fc.constant([])
          : fc.array(valueFor(node["items"] as Node, depth + 1), { maxLength: 3 });
      case "object": {
        if (depth > 3) return fc.constant({});
        const props = Object.entries((node["properties"] as Node | undefined) ?? {});
        const fields = props.map(([k, sub]) =>
          fc
            .option(valueFor(sub as Node, depth + 1), { nil: undefined, freq: 3 })
            .map((v) => [k, v] as const),
        );
        return fc
          .tuple(
            fc.tuple(...fields),
            fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue()),
            fc.boolean(),
          )
          .map(([vals, extra, proto]) => {
            const out: Node = { ...extra };
            for (const [k, v] of vals) if (v !== undefined) out[k] = v;
            if (proto) Object.defineProperty(out, "__proto__", { value: 1, enumerable: true });
            return out;
          });
      }
      default:
        return fc.jsonValue();
    }
  })();
  return fc.oneof({ arbitrary: right, weight: 6 }, { arbitrary: wrong, weight: 1 });
}

function hasOwnProto(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(hasOwnProto);
  if (v === null || typeof v !== "object") return false;
  return Object.hasOwn(v, "__proto__") || Object.values(v).some(hasOwnProto);
}

const readSchemas: [string, z.ZodType][] = Object.entries(schemas).flatMap(
  ([name, s]): [string, z.ZodType][] => (s instanceof z.ZodType ? [[name, s as z.ZodType]] : []),
);

describe("JSON check of read schemas", () => {
  it("compiles the list schemas the client reads most (file systems, snapshots, space)", () => {
    for (const s of [schemas.fileSystemSchema, schemas.snapshotSchema, schemas.spaceSchema])
      expect(jsonCheckOf(s)).toBeTypeOf("function");
  });

  it("compiles nothing it cannot match one to one", () => {
    expect(jsonCheckOf(z.object({ a: z.string() }))).toBeUndefined(); // strip: zod drops unknown keys
    expect(jsonCheckOf(z.looseObject({ a: z.number().int() }))).toBeUndefined();
    expect(jsonCheckOf(z.looseObject({ a: z.string().default("x") }))).toBeUndefined();
    expect(jsonCheckOf(z.looseObject({ a: z.string().nullable() }))).toBeUndefined();
  });

  it("read schemas stay plain: nothing JSON Schema cannot show, nothing from outside the file", () => {
    const source = readFileSync(new URL("../../src/flashblade/schemas.ts", import.meta.url), "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/\/\/.*$/gm, "");
    for (const hidden of [
      ".refine(",
      ".superRefine(",
      ".transform(",
      ".pipe(",
      "preprocess(",
      ".check(",
      "z.custom",
      ".catch(",
      ".overwrite(",
    ])
      expect(source, hidden).not.toContain(hidden);
    expect([...source.matchAll(/^import .* from "(.+)";$/gm)].map((m) => m[1])).toEqual(["zod"]);
  });

  it("a schema from elsewhere is parsed by zod: its refinements hold", () => {
    const nonEmpty = z.looseObject({ name: z.string().refine((s) => s !== "", "empty name") });
    expect(() => validateItems("fb-1", "/x", [{ name: "" }], nonEmpty)).toThrow(
      /items\[0\]\.name: empty name/,
    );
  });

  for (const [name, schema] of readSchemas) {
    const check = jsonCheckOf(schema);
    if (!check) continue;
    it(`${name}: accepts exactly what zod accepts, and that is what zod returns`, () => {
      const json = z.toJSONSchema(schema, { io: "input" }) as Node;
      fc.assert(
        fc.property(valueFor(json), (value) => {
          const parsed = schema.safeParse(value);
          // What it accepts, zod accepts and returns unchanged. What zod accepts, it accepts too, unless an own
          // `__proto__` is about (zod drops it from the objects it copies): that is left to zod on purpose.
          if (check(value)) {
            expect(parsed.success).toBe(true);
            expect(value).toStrictEqual(parsed.data);
          } else if (!hasOwnProto(value)) expect(parsed.success).toBe(false);
        }),
        { numRuns: 200 },
      );
    });
  }

  it("a wrong field still fails with zod's message naming it", () => {
    const items = [{ name: "a" }, { name: "b", space: { virtual: "lots" } }];
    expect(() => validateItems("fb-1", "/file-systems", items, schemas.fileSystemSchema)).toThrow(
      /items\[1\]\.space\.virtual/,
    );
  });
});
