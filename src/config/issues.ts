/**
 * Schema problems as a person fixes them: an unknown key names itself with the nearest known key of the same
 * place (`arrays[0].adress: unknown key. Did you mean `address`?`), and the "required" problem that the same typo
 * causes (address missing) is not listed again; a missing key says it is missing rather than "expected string,
 * received undefined". The known keys are read from the schema itself, so every section gets the same help.
 */
import type { z } from "zod";
import { didYouMean, suggest } from "../suggest.js";

type Segment = PropertyKey;

/** zod's internal definition, as far as finding the keys of an object at a path needs it. */
interface Def {
  type?: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: readonly z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  valueType?: z.ZodType;
  getter?: () => z.ZodType;
}

const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Every schema a value at `path` may be checked by (a union gives several). */
function schemasAt(schema: z.ZodType, path: readonly Segment[], depth = 0): z.ZodType[] {
  if (depth > 40) return [];
  const def = defOf(schema);
  const inner = def.innerType ?? def.in ?? (def.type === "lazy" ? def.getter?.() : undefined);
  if (inner) return schemasAt(inner, path, depth + 1);
  if (def.options) return def.options.flatMap((o) => schemasAt(o, path, depth + 1));
  if (def.left && def.right)
    return [...schemasAt(def.left, path, depth + 1), ...schemasAt(def.right, path, depth + 1)];
  if (path.length === 0) return [schema];
  const [head, ...rest] = path;
  if (def.type === "object" && typeof head === "string") {
    const next = def.shape?.[head];
    return next ? schemasAt(next, rest, depth + 1) : [];
  }
  if (def.type === "array" && typeof head === "number" && def.element)
    return schemasAt(def.element, rest, depth + 1);
  if (def.type === "record" && def.valueType) return schemasAt(def.valueType, rest, depth + 1);
  return [];
}

/** The keys an object at `path` may have, by the schema. */
export function keysAt(schema: z.ZodType, path: readonly Segment[]): string[] {
  const keys = new Set<string>();
  for (const s of schemasAt(schema, path)) {
    const def = defOf(s);
    if (def.type === "object") for (const k of Object.keys(def.shape ?? {})) keys.add(k);
  }
  return [...keys];
}

function pathText(segments: readonly Segment[]): string {
  let path = "";
  for (const seg of segments) {
    path += typeof seg === "number" ? `[${seg}]` : path === "" ? String(seg) : `.${String(seg)}`;
  }
  return path || "(root)";
}

const samePath = (a: readonly Segment[], b: readonly Segment[]) =>
  a.length === b.length && a.every((s, i) => s === b[i]);

/** Every issue as `path: message`, unknown keys with their did-you-mean, in the order zod found them. */
export function formatConfigIssues(error: z.ZodError, schema?: z.ZodType): string[] {
  // Keys a typo stands for: their "missing" issue is the same mistake and is not listed twice.
  const meant: Segment[][] = [];
  const lines = new Map<z.core.$ZodIssue, string[]>();
  for (const issue of error.issues) {
    if (issue.code !== "unrecognized_keys") continue;
    const known = schema ? keysAt(schema, issue.path) : [];
    lines.set(
      issue,
      issue.keys.map((key) => {
        const near = suggest(
          key,
          known.filter((k) => k !== key),
        ).slice(0, 1);
        for (const k of near) meant.push([...issue.path, k]);
        const where = pathText([...issue.path, key]);
        return `${where}: unknown key.${near.length ? didYouMean(near) : known.length ? ` Known keys here: ${known.join(", ")}.` : ""}`;
      }),
    );
  }
  return error.issues.flatMap((issue) => {
    const listed = lines.get(issue);
    if (listed) return listed;
    const missing = issue.code === "invalid_type" && / received undefined$/.test(issue.message);
    if (missing && meant.some((m) => samePath(m, issue.path))) return [];
    return [`${pathText(issue.path)}: ${missing ? "missing; this setting is required" : issue.message}`];
  });
}
