/**
 * Builder for the array's `filter=` grammar. User text only ever enters as a quoted, escaped string value, so a
 * name holding quotes, `)`, ` and ` or `*` cannot change the meaning of the expression. Field names are
 * checked against a strict pattern instead of being quoted (the grammar has no quoting for them).
 *
 * Quoting: single quotes, with `\\` and `\'` escaped (the simulator's grammar also accepts `\"`).
 * Wildcards: in `=` and `!=` comparisons the array treats `*` as "any characters", and the grammar has no
 * escape for a literal `*`. So `eq`/`ne` REFUSE values containing `*` with a user-facing FILTER_INVALID error
 * rather than silently matching more than asked; use `like` when a wildcard is meant. `contains` treats its
 * text literally (substring), so `*` is allowed there.
 */
import { filterInvalid } from "./errors.js";

const FIELD = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$/;

declare const filterBrand: unique symbol;
/** A filter expression produced by this module (a plain string underneath). */
export type Filter = string & { readonly [filterBrand]: true };

export type Scalar = string | number | boolean;

function field(name: string): string {
  if (!FIELD.test(name)) {
    throw filterInvalid(
      `"${name}" is not a valid field name for a filter (expected e.g. name or space.unique)`,
    );
  }
  return name;
}

/** Quotes any string for the grammar; exported for tests. */
export function quote(text: string): string {
  return `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

function literal(value: Scalar): string {
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw filterInvalid(`${value} cannot be used in a filter`);
    return String(value);
  }
  return quote(value);
}

function exact(value: Scalar, op: string): string {
  if (typeof value === "string" && value.includes("*")) {
    throw filterInvalid(
      `the value ${quote(value)} contains "*", which array filters always treat as a wildcard, so "${op}" ` +
        "cannot match it exactly; select the object by its name instead",
    );
  }
  return literal(value);
}

const brand = (s: string) => s as Filter;

export function eq(name: string, value: Scalar): Filter {
  return brand(`${field(name)}=${exact(value, "=")}`);
}
export function ne(name: string, value: Scalar): Filter {
  return brand(`${field(name)}!=${exact(value, "!=")}`);
}
export function gt(name: string, value: Scalar): Filter {
  return brand(`${field(name)}>${literal(value)}`);
}
export function ge(name: string, value: Scalar): Filter {
  return brand(`${field(name)}>=${literal(value)}`);
}

/** Substring match; the text is literal. */
export function contains(name: string, text: string): Filter {
  return brand(`contains(${field(name)},${quote(text)})`);
}

/**
 * Wildcard match: `*` in `pattern` means any characters; everything else is matched literally (quotes and
 * backslashes are escaped like any value).
 */
export function like(name: string, pattern: string): Filter {
  return brand(`${field(name)}=${quote(pattern)}`);
}

/** True when a boolean field is true (or an optional field is present). */
export function isTrue(name: string): Filter {
  return brand(field(name));
}

function join(op: "and" | "or", parts: readonly Filter[]): Filter {
  if (parts.length === 0) throw filterInvalid(`"${op}" needs at least one condition`);
  if (parts.length === 1) return parts[0] as Filter;
  return brand(parts.map((p) => `(${p})`).join(` ${op} `));
}

export function and(...parts: Filter[]): Filter {
  return join("and", parts);
}
export function or(...parts: Filter[]): Filter {
  return join("or", parts);
}
export function not(part: Filter): Filter {
  return brand(`not(${part})`);
}

/** `name='a' or name='b'…` for a list of exact names; undefined for an empty list. */
export function anyOf(name: string, values: readonly Scalar[]): Filter | undefined {
  if (values.length === 0) return undefined;
  return or(...values.map((v) => eq(name, v)));
}
