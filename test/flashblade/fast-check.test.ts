import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { compileCheck as compileFor } from "../../src/flashblade/fast-check.js";
import { nullsToUndefined } from "../../src/flashblade/response.js";
import * as schemas from "../../src/flashblade/schemas.js";

const readSchemas = Object.entries(schemas)
  .filter(([name]) => name.endsWith("Schema"))
  .map(([name, schema]) => [name, schema as z.ZodType] as const);

/** Values shaped like array responses: mostly right, sometimes a field of the wrong type. */
const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string({ maxLength: 4 }),
    fc.double({ noNaN: false }),
    fc.integer(),
    fc.boolean(),
    fc.constant(undefined),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    tie("object"),
  ),
  object: fc.dictionary(
    fc.constantFrom(
      "name",
      "id",
      "space",
      "virtual",
      "nfs",
      "enabled",
      "items",
      "versions",
      "errors",
      "message",
      "x",
    ),
    tie("value"),
    { maxKeys: 5 },
  ),
}));

/** What zod sees after the client's null handling. */
function normalised(v: unknown): unknown {
  const copy = structuredClone(v);
  nullsToUndefined(copy);
  return copy;
}

/** The right type most of the time, anything now and then. */
function mostly<T>(good: fc.Arbitrary<T>, other: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: good, weight: 8 }, { arbitrary: other, weight: 1 });
}

describe.each([
  { mode: "generated code", generate: true },
  { mode: "field loop (no code generation)", generate: false },
])("compiled read-schema checks ($mode)", ({ generate }) => {
  const compileCheck = (schema: z.ZodType) => compileFor(schema, { generate });

  it("compile for every read schema the client uses", () => {
    for (const [name, schema] of readSchemas) {
      if (name === "versionsSchema" || name === "errorBodySchema") continue;
      expect(compileCheck(schema), name).toBeTypeOf("function");
    }
  });

  it("accept exactly what zod accepts (property, all read schemas)", () => {
    for (const [name, schema] of readSchemas) {
      const check = compileCheck(schema);
      if (!check) continue;
      fc.assert(
        fc.property(jsonish.value, (v) => {
          expect(check(structuredClone(v)), name).toBe(schema.safeParse(normalised(v)).success);
        }),
        { numRuns: 300 },
      );
    }
  });

  it("agree with zod on file-system-like objects, valid and not (property)", () => {
    const check = compileCheck(schemas.fileSystemSchema);
    const field = fc.oneof(jsonish.value, fc.integer(), fc.boolean(), fc.string());
    let accepted = 0;
    fc.assert(
      fc.property(
        fc.record(
          {
            name: fc.oneof({ arbitrary: fc.string(), weight: 9 }, { arbitrary: fc.integer(), weight: 1 }),
            provisioned: mostly(fc.integer(), field),
            destroyed: mostly(fc.boolean(), field),
            space: mostly(fc.record({ virtual: mostly(fc.integer(), field), unique: fc.integer() }), field),
            nfs: mostly(fc.record({ enabled: fc.boolean(), rules: mostly(fc.string(), field) }), field),
          },
          { requiredKeys: ["name"] },
        ),
        (v) => {
          const ok = schemas.fileSystemSchema.safeParse(normalised(v)).success;
          if (ok) accepted++;
          expect(check?.(structuredClone(v))).toBe(ok);
        },
      ),
      { numRuns: 500 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it("accept a realistic file system and reject a wrong nested field", () => {
    const check = compileCheck(schemas.fileSystemSchema);
    const fs = {
      name: "home",
      space: { virtual: 1, unique: 2 },
      nfs: { enabled: true },
      extra: { anything: 1 },
    };
    expect(check?.(fs)).toBe(true);
    expect(check?.({ ...fs, space: { virtual: "1" } })).toBe(false);
    expect(check?.({ ...fs, name: undefined })).toBe(false);
    const withNulls: Record<string, unknown> = { ...fs, time_remaining: null, source: null };
    expect(check?.(withNulls)).toBe(true);
    expect(withNulls.time_remaining).toBeUndefined();
    expect(check?.({ ...fs, name: null })).toBe(false);
  });

  it("decline schemas with refinements, formats, transforms or non-loose objects", () => {
    expect(compileCheck(z.string().min(1))).toBeUndefined();
    expect(compileCheck(z.int())).toBeUndefined();
    expect(compileCheck(z.string().transform((s) => s.length))).toBeUndefined();
    expect(compileCheck(z.object({ a: z.string() }))).toBeUndefined();
    expect(compileCheck(z.looseObject({ a: z.string().nullable() }))).toBeUndefined();
    expect(compileCheck(z.looseObject({ a: z.string() }).refine(() => true))).toBeUndefined();
  });
});

describe("generated object checks", () => {
  it("quote field names, so a key cannot break out of the generated code", () => {
    const odd = z.looseObject({
      'a"]; throw 1; //': z.string().optional(),
      "acl-mode": z.string().optional(),
    });
    const check = compileFor(odd);
    expect(check?.({ 'a"]; throw 1; //': "x", "acl-mode": "native" })).toBe(true);
    expect(check?.({ 'a"]; throw 1; //': 1 })).toBe(false);
  });
});
