/**
 * A body model in the 1.x shape the catalogue's fields read, for either generation: the 1.x model where one has
 * the name (every existing noun keeps its words), else the 2.x schema (src/rest-spec/models-2x.ts) with its types
 * read into the same words (string → str, integer → int, a reference → Reference, a list of them → a list).
 * Read-only properties are not writable, so they are left out.
 */
import { MODELS, type ModelField, type ModelSpec } from "../../../src/rest-spec/models.js";
import { MODELS_2X, type Model2xField } from "../../../src/rest-spec/models-2x.js";

const REFERENCE = /^ref:_(reference|referenceWritable|fixedReference\w*|referenceWithoutType)$/;

function type2x(t: string): string | undefined {
  if (t === "string") return "str";
  if (t.startsWith("integer")) return "int";
  if (t.startsWith("number")) return "float";
  if (t === "boolean") return "bool";
  if (t === "array<string>") return "list[str]";
  if (REFERENCE.test(t)) return "Reference";
  const list = /^array<(ref:[^>]+)>$/.exec(t);
  if (list?.[1] && REFERENCE.test(list[1])) return "list[Reference]";
  if (t.startsWith("ref:")) return t.slice(4);
  return undefined;
}

function field2x(f: Model2xField): ModelField | undefined {
  const type = type2x(f.type);
  if (!type || f.ro || f.last !== undefined) return undefined;
  return {
    type,
    ...(f.since ? { since: f.since } : {}),
    ...(f.values ? { values: f.values } : {}),
  };
}

const converted = new Map<string, ModelSpec | null>();

export function modelOf(name: string | undefined): ModelSpec | undefined {
  if (!name) return undefined;
  const one = MODELS[name];
  if (one) return one;
  let hit = converted.get(name);
  if (hit === undefined) {
    const m = MODELS_2X[name];
    hit = m
      ? {
          since: "2.0",
          fields: Object.fromEntries(
            Object.entries(m).flatMap(([k, f]) => {
              const d = field2x(f);
              return d ? [[k, d]] : [];
            }),
          ),
        }
      : null;
    converted.set(name, hit);
  }
  return hit ?? undefined;
}
