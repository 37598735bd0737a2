/**
 * Turns a parsed filter into a tree of closures, so an expression is analysed once and each item costs only a
 * few property reads and comparisons. Semantics (fact sheet §5): comparisons are case-insensitive, `*` is a
 * wildcard for = and !=, quoted numbers and booleans coerce to the field's type, and a missing field makes any
 * comparison false. Arrays match when any element matches (`!=`: when none is equal).
 */

import { compilePath } from "./field-path.js";
import type { Operator } from "./filter-lexer.js";
import { type FilterNode, type Literal, parseFilter } from "./filter-parser.js";
import { fold } from "./fold.js";
import { matchesWildcard } from "./wildcard.js";

export type Predicate = (item: unknown) => boolean;
/** true / false, or undefined when the value cannot be compared (null, object, missing). */
type ScalarTest = (value: unknown) => boolean | undefined;

const NUMERIC = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** Compiles a filter expression; a malformed one throws a 400 SimHttpError that says where and why. */
export function compileFilter(expr: string): Predicate {
  return compileNode(parseFilter(expr));
}

export function compileNode(node: FilterNode): Predicate {
  switch (node.kind) {
    case "or": {
      const terms = node.terms.map(compileNode);
      return (item) => terms.some((term) => term(item));
    }
    case "and": {
      const terms = node.terms.map(compileNode);
      return (item) => terms.every((term) => term(item));
    }
    case "not": {
      const term = compileNode(node.term);
      return (item) => !term(item);
    }
    case "truthy": {
      const get = compilePath(node.field);
      return (item) => isTruthy(get(item));
    }
    case "contains": {
      const get = compilePath(node.field);
      const needle = fold(node.text);
      const test: ScalarTest = (value) =>
        isScalar(value) ? fold(String(value)).includes(needle) : undefined;
      return (item) => anyElement(get(item), test);
    }
    case "compare":
      return compileComparison(node.field, node.op, node.value);
  }
}

function isTruthy(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : Boolean(value);
}

function isScalar(value: unknown): value is string | number | boolean {
  const type = typeof value;
  return type === "string" || type === "number" || type === "boolean";
}

function anyElement(value: unknown, test: ScalarTest): boolean {
  if (!Array.isArray(value)) return test(value) === true;
  return value.some((element) => test(element) === true);
}

function compileComparison(field: string, op: Operator, literal: Literal): Predicate {
  const get = compilePath(field);
  if (op === "!=") {
    const equal = compileScalar("=", literal);
    const notEqual: ScalarTest = (value) => {
      const result = equal(value);
      return result === undefined ? undefined : !result;
    };
    return (item) => {
      const value = get(item);
      if (!Array.isArray(value)) return notEqual(value) === true;
      return value.length > 0 && value.every((element) => notEqual(element) === true);
    };
  }
  const test = compileScalar(op, literal);
  return (item) => anyElement(get(item), test);
}

function orderingTest(op: Operator): (order: number) => boolean {
  switch (op) {
    case "=":
      return (order) => order === 0;
    case "!=":
      return (order) => order !== 0;
    case "<":
      return (order) => order < 0;
    case ">":
      return (order) => order > 0;
    case "<=":
      return (order) => order <= 0;
    case ">=":
      return (order) => order >= 0;
  }
}

function order(a: number | string, b: number | string): number {
  if (a < b) return -1;
  if (a > b) return 1;
  return a === b ? 0 : Number.NaN;
}

/** Precomputes every reading of the literal, then picks the one that fits the field's type per value. */
function compileScalar(op: Operator, literal: Literal): ScalarTest {
  const accept = orderingTest(op);
  const text = fold(literal.kind === "string" ? literal.parts.join("*") : String(literal.value));
  const glob =
    literal.kind === "string" && literal.parts.length > 1 && op === "="
      ? literal.parts.map((part) => fold(part))
      : undefined;
  let asNumber: number | undefined;
  if (literal.kind === "number") asNumber = literal.value;
  else if (literal.kind === "string" && NUMERIC.test(text)) asNumber = Number(text);
  let asBoolean: boolean | undefined;
  if (literal.kind === "boolean") asBoolean = literal.value;
  else if (text === "true" || text === "false") asBoolean = text === "true";

  const compareText = (value: string): boolean =>
    glob ? matchesWildcard(fold(value), glob) : accept(order(fold(value), text));

  return (value) => {
    switch (typeof value) {
      case "string":
        if (literal.kind === "number" && NUMERIC.test(value))
          return accept(order(Number(value), literal.value));
        return compareText(value);
      case "number":
        if (!glob && asNumber !== undefined) return accept(order(value, asNumber));
        return compareText(String(value));
      case "boolean":
        if (!glob && asBoolean !== undefined) return accept(order(Number(value), Number(asBoolean)));
        if (!glob && literal.kind === "number") return accept(order(Number(value), literal.value));
        return compareText(String(value));
      default:
        return undefined;
    }
  };
}
