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

/**
 * Straight-line code, as zod itself does for objects: a closure per field measured nearly as slow as zod's parse
 * (7.8 µs vs 10.5 µs for 12 file systems); generated statements are a fraction. Keys enter the code only as
 * JSON string literals; enum values stay data (`sets`).
 */
class Gen {
  private vars = 0;
  readonly sets: Set<unknown>[] = [];

  /** Statements that `return false` unless the value in variable `v` matches `node`; undefined if unsupported. */
  check(node: unknown, v: string): string | undefined {
    if (!isNode(node)) return undefined;
    switch (node["type"]) {
      case "string": {
        const values = node["enum"];
        if (values === undefined)
          return only(node, ["type"]) ? `if (typeof ${v} !== "string") return false;` : undefined;
        if (!only(node, ["type", "enum"]) || !Array.isArray(values)) return undefined;
        this.sets.push(new Set(values));
        return `if (typeof ${v} !== "string" || !sets[${this.sets.length - 1}].has(${v})) return false;`;
      }
      case "number":
        return only(node, ["type"])
          ? `if (typeof ${v} !== "number" || !Number.isFinite(${v})) return false;`
          : undefined;
      case "boolean":
        return only(node, ["type"]) ? `if (typeof ${v} !== "boolean") return false;` : undefined;
      case "array": {
        if (!only(node, ["type", "items"])) return undefined;
        const i = this.name();
        const x = this.name();
        const item = this.check(node["items"], x);
        return (
          item &&
          `if (!Array.isArray(${v})) return false; for (let ${i} = 0; ${i} < ${v}.length; ${i}++) { const ${x} = ${v}[${i}]; ${item} }`
        );
      }
      case "object":
        return this.object(node, v);
      default:
        return undefined;
    }
  }

  private object(node: Node, v: string): string | undefined {
    // Loose only: `additionalProperties: {}`. A strip or strict object's parse differs from its input.
    const extra = node["additionalProperties"];
    if (!isNode(extra) || Object.keys(extra).length > 0) return undefined;
    if (!only(node, ["type", "properties", "required", "additionalProperties"])) return undefined;
    const props = node["properties"] ?? {};
    if (!isNode(props)) return undefined;
    const required = new Set((node["required"] as unknown[] | undefined) ?? []);
    // zod leaves an own `__proto__` out of its copy: such a value goes to zod.
    let code = `if (${v} === null || typeof ${v} !== "object" || Array.isArray(${v}) || Object.hasOwn(${v}, "__proto__")) return false;`;
    for (const [key, sub] of Object.entries(props)) {
      const x = this.name();
      const inner = this.check(sub, x);
      if (inner === undefined) return undefined;
      code += ` { const ${x} = ${v}[${JSON.stringify(key)}]; `;
      code += required.has(key)
        ? `if (${x} === undefined) return false; ${inner} }`
        : `if (${x} !== undefined) { ${inner} } }`;
    }
    return code;
  }

  private name(): string {
    return `v${this.vars++}`;
  }
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
  const gen = new Gen();
  const body = gen.check(node, "v");
  if (body === undefined) return undefined;
  return new Function("sets", `return (v) => { ${body} return true; };`)(gen.sets) as JsonCheck;
}
