/**
 * A fast path for validating array responses. zod stays the source of truth: from a read schema this compiles
 * a plain predicate that accepts exactly what the schema accepts, for the node types our read schemas use
 * (loose objects, optional, string, number, boolean, unknown, array, record, union) and only when no
 * refinements, formats or transforms are attached. A value that passes is returned as it is, since for those
 * schemas zod's output equals its input; anything else goes through zod, which then names the bad field.
 * In the same pass an optional field holding null is set to undefined (the client's one spelling of absent),
 * so the check accepts what zod accepts after response.ts's nullsToUndefined.
 *
 * Why: measured on a 12-item file-system page, zod's safeParse costs ~3 µs per item, about a tenth of a
 * loopback list call; the predicate costs a fraction of that, and with object checks generated as
 * straight-line code (generatedObjectCheck) under 0.1 µs per item (bench/client.ts, test/flashblade/fast-check).
 */
import type { z } from "zod";

export type Check = (value: unknown) => boolean;

interface Def {
  type: string;
  checks?: unknown[];
  format?: unknown;
  innerType?: z.ZodType;
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export interface CompileOptions {
  /**
   * Object checks as generated straight-line code (the default) or as a loop over the fields. The loop is
   * the fallback where code generation is disallowed; tests hold both to zod.
   */
  generate?: boolean;
}

/** The predicate for `schema`, or undefined when the schema uses anything this module does not model. */
export function compileCheck(schema: z.ZodType, opts: CompileOptions = {}): Check | undefined {
  const def = defOf(schema);
  const compile = (inner: z.ZodType) => compileCheck(inner, opts);
  if (def.checks && def.checks.length > 0) return undefined;
  switch (def.type) {
    case "string":
      return (v) => typeof v === "string";
    case "number":
      return def.format === undefined ? (v) => typeof v === "number" && Number.isFinite(v) : undefined;
    case "boolean":
      return (v) => typeof v === "boolean";
    case "unknown":
      return () => true;
    case "optional": {
      const inner = def.innerType && compile(def.innerType);
      return inner && ((v) => v === undefined || inner(v));
    }
    case "array": {
      const element = def.element && compile(def.element);
      return element && ((v) => Array.isArray(v) && v.every(element));
    }
    case "record": {
      const key = def.keyType && defOf(def.keyType);
      const value = def.valueType && compile(def.valueType);
      if (key?.type !== "string" || (key.checks && key.checks.length > 0) || !value) return undefined;
      return (v) => isObject(v) && Object.values(v).every(value);
    }
    case "union": {
      const options = (def.options ?? []).map(compile);
      if (options.length === 0 || options.some((o) => o === undefined)) return undefined;
      const all = options as Check[];
      return (v) => all.some((o) => o(v));
    }
    case "object": {
      // Only loose objects: a strip or strict object's output differs from its input.
      if (!def.catchall || defOf(def.catchall).type !== "unknown" || !def.shape) return undefined;
      const fields: Field[] = [];
      for (const [key, field] of Object.entries(def.shape)) {
        // Optional fields are unwrapped here so the check tests absence inline (one call less per field).
        const fieldDef = defOf(field);
        const optional = fieldDef.type === "optional" && !(fieldDef.checks && fieldDef.checks.length > 0);
        const inner = optional && fieldDef.innerType ? fieldDef.innerType : field;
        const check = compile(inner);
        if (!check) return undefined;
        fields.push({ key, optional, check, test: inlineTest(defOf(inner)) });
      }
      return (opts.generate ?? true)
        ? (generatedObjectCheck(fields) ?? loopObjectCheck(fields))
        : loopObjectCheck(fields);
    }
    default:
      return undefined;
  }
}

interface Field {
  key: string;
  optional: boolean;
  check: Check;
  /** For a primitive, the JavaScript condition that `x` is NOT of that type (used in generated code). */
  test: string | undefined;
}

/** The inline "x is not of this type" condition for primitives the compiled checks handle themselves. */
function inlineTest(def: Def): string | undefined {
  if (def.checks && def.checks.length > 0) return undefined;
  if (def.type === "string") return `typeof x !== "string"`;
  if (def.type === "boolean") return `typeof x !== "boolean"`;
  if (def.type === "number" && def.format === undefined) return "!Number.isFinite(x)";
  if (def.type === "unknown") return "false";
  return undefined;
}

/** The object check as a loop over its fields. */
function loopObjectCheck(fields: readonly Field[]): Check {
  const n = fields.length;
  return (v) => {
    if (!isObject(v)) return false;
    for (let i = 0; i < n; i++) {
      const field = fields[i] as Field;
      const value = v[field.key];
      if (value === undefined || value === null) {
        if (!field.optional) return false;
        // An optional field sent as null is absent (see nullsToUndefined in response.ts).
        if (value === null) v[field.key] = undefined;
      } else if (!field.check(value)) return false;
    }
    return true;
  };
}

/**
 * The same check as straight-line code: each field read with a constant key, so every read site sees one
 * object shape and V8's inline caches hit (in the loop all reads share one megamorphic site), and primitive
 * tests inline. Measured on the 12-item file-system page: ~8 µs for the loop, ~1 µs generated. The keys come
 * from our schemas, never from array data, and are JSON-quoted. Undefined where code generation is disallowed.
 */
function generatedObjectCheck(fields: readonly Field[]): Check | undefined {
  const lines = fields.map((f, i) => {
    const k = JSON.stringify(f.key);
    const wrong = f.test ?? `!c[${i}](x)`;
    return f.optional
      ? `x = v[${k}]; if (x === null) v[${k}] = undefined; else if (x !== undefined && ${wrong}) return false;`
      : `x = v[${k}]; if (x === undefined || x === null || ${wrong}) return false;`;
  });
  const source = [
    '"use strict";',
    "return function check(v) {",
    'if (typeof v !== "object" || v === null || Array.isArray(v)) return false;',
    "let x;",
    ...lines,
    "return true;",
    "};",
  ].join("\n");
  try {
    return new Function("c", source)(fields.map((f) => f.check)) as Check;
  } catch {
    return undefined;
  }
}

const cache = new WeakMap<z.ZodType, Check | null>();

/** compileCheck, once per schema. */
export function checkFor(schema: z.ZodType): Check | undefined {
  let check = cache.get(schema);
  if (check === undefined) {
    check = compileCheck(schema) ?? null;
    cache.set(schema, check);
  }
  return check ?? undefined;
}
