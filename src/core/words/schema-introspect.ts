/** Reads what the parser and help need from a zod argument schema: switches, optionality, descriptions. */
import type { z } from "zod";

interface WrapperDef {
  type: string;
  innerType?: z.ZodType;
}

function* layers(schema: z.ZodType | undefined): Generator<z.ZodType> {
  let s = schema;
  // Wrappers (optional, default, nullable…) expose the wrapped schema as innerType.
  for (let depth = 0; s && depth < 8; depth++) {
    yield s;
    s = (s._zod.def as WrapperDef).innerType;
  }
}

/** True when the schema (under optional/default wrappers) is a boolean: the option is a switch. */
export function isSwitch(schema: z.ZodType | undefined): boolean {
  for (const s of layers(schema)) if ((s._zod.def as WrapperDef).type === "boolean") return true;
  return false;
}

/** The values of an enum argument (under optional/default wrappers), or undefined for anything else. */
export function enumValues(schema: z.ZodType | undefined): readonly string[] | undefined {
  for (const s of layers(schema)) {
    const def = s._zod.def as WrapperDef & { entries?: Record<string, string | number> };
    if (def.type === "enum" && def.entries) return Object.values(def.entries).map(String);
  }
  return undefined;
}

export function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

/** The description given with `.describe()`, looked up through optional/default wrappers. */
export function describeArg(schema: z.ZodType): string | undefined {
  for (const s of layers(schema)) if (s.description) return s.description;
  return undefined;
}

/** `hard-limit` and `hard_limit` both mean the key `hardLimit`. */
export function optionToKey(option: string): string {
  return option.toLowerCase().replace(/[-_]+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function keyToOption(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
