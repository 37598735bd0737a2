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
 * loopback list call; the predicate costs a fraction of that (bench/client.ts, test/flashblade/fast-check).
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

/** The predicate for `schema`, or undefined when the schema uses anything this module does not model. */
export function compileCheck(schema: z.ZodType): Check | undefined {
  const def = defOf(schema);
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
      const inner = def.innerType && compileCheck(def.innerType);
      return inner && ((v) => v === undefined || inner(v));
    }
    case "array": {
      const element = def.element && compileCheck(def.element);
      return element && ((v) => Array.isArray(v) && v.every(element));
    }
    case "record": {
      const key = def.keyType && defOf(def.keyType);
      const value = def.valueType && compileCheck(def.valueType);
      if (key?.type !== "string" || (key.checks && key.checks.length > 0) || !value) return undefined;
      return (v) => isObject(v) && Object.values(v).every(value);
    }
    case "union": {
      const options = (def.options ?? []).map(compileCheck);
      if (options.length === 0 || options.some((o) => o === undefined)) return undefined;
      const all = options as Check[];
      return (v) => all.some((o) => o(v));
    }
    case "object": {
      // Only loose objects: a strip or strict object's output differs from its input.
      if (!def.catchall || defOf(def.catchall).type !== "unknown" || !def.shape) return undefined;
      const keys: string[] = [];
      const checks: Check[] = [];
      const optional: boolean[] = [];
      for (const [key, field] of Object.entries(def.shape)) {
        // Optional fields are unwrapped here so the loop below tests absence inline (one call less per field).
        const fieldDef = defOf(field);
        const isOptional = fieldDef.type === "optional" && !(fieldDef.checks && fieldDef.checks.length > 0);
        const check = compileCheck(isOptional && fieldDef.innerType ? fieldDef.innerType : field);
        if (!check) return undefined;
        keys.push(key);
        checks.push(check);
        optional.push(isOptional);
      }
      const n = keys.length;
      return (v) => {
        if (!isObject(v)) return false;
        for (let i = 0; i < n; i++) {
          const key = keys[i] as string;
          const value = v[key];
          if (value === undefined || value === null) {
            if (!optional[i]) return false;
            // An optional field sent as null is absent (see nullsToUndefined in response.ts).
            if (value === null) v[key] = undefined;
          } else if (!(checks[i] as Check)(value)) return false;
        }
        return true;
      };
    }
    default:
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
