/**
 * Tokens of the 1.x filter grammar. Positions are 1-based character offsets so error messages can point at the
 * exact spot in the expression the user typed.
 */
import { badRequest, type SimHttpError } from "../types.js";

export type Operator = "=" | "!=" | "<" | ">" | "<=" | ">=";

/** A quoted string split on its unescaped `*` wildcards: `'a*b'` is ["a", "b"], `'ab'` is ["ab"]. */
export interface StringLiteral {
  readonly kind: "string";
  /** The literal as written, quotes included (for error messages). */
  readonly text: string;
  readonly parts: readonly string[];
}

export type Token =
  | { readonly kind: "ident"; readonly text: string; readonly pos: number }
  | { readonly kind: "number"; readonly text: string; readonly value: number; readonly pos: number }
  | (StringLiteral & { readonly pos: number })
  | { readonly kind: "op"; readonly text: Operator; readonly pos: number }
  | { readonly kind: "(" | ")" | ","; readonly text: string; readonly pos: number }
  | { readonly kind: "end"; readonly text: ""; readonly pos: number };

const OPERATORS: ReadonlySet<string> = new Set(["=", "!=", "<", ">", "<=", ">="]);
// Characters that look like an attempt at an operator, so `==` or `~` get "unknown operator", not "unexpected".
const OPERATOR_CHARS = /[=!<>~&|^]/;
const IDENT = /[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/y;
const NUMBER = /-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const WORD_CHAR = /[A-Za-z0-9_.]/;

export function filterError(message: string): SimHttpError {
  return badRequest(`Invalid filter: ${message}`, "filter");
}

export function describeToken(token: Token): string {
  if (token.kind === "end") return "the end of the filter";
  return `'${token.text}' at character ${token.pos}`;
}

export function tokenize(expr: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < expr.length) {
    const ch = expr.charAt(i);
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const pos = i + 1;
    if (ch === "(" || ch === ")" || ch === ",") {
      tokens.push({ kind: ch, text: ch, pos });
      i++;
    } else if (ch === "'" || ch === '"') {
      const { literal, next } = readString(expr, i);
      tokens.push({ ...literal, pos });
      i = next;
    } else if (OPERATOR_CHARS.test(ch)) {
      let j = i;
      while (j < expr.length && OPERATOR_CHARS.test(expr.charAt(j))) j++;
      const text = expr.slice(i, j);
      if (!OPERATORS.has(text)) {
        throw filterError(`unknown operator '${text}' at character ${pos} (use =, !=, <, >, <= or >=).`);
      }
      tokens.push({ kind: "op", text: text as Operator, pos });
      i = j;
    } else {
      i = readWord(expr, i, tokens);
    }
  }
  tokens.push({ kind: "end", text: "", pos: expr.length + 1 });
  return tokens;
}

function readWord(expr: string, i: number, tokens: Token[]): number {
  const pos = i + 1;
  NUMBER.lastIndex = i;
  const num = NUMBER.exec(expr);
  if (num && !WORD_CHAR.test(expr.charAt(i + num[0].length))) {
    tokens.push({ kind: "number", text: num[0], value: Number(num[0]), pos });
    return i + num[0].length;
  }
  IDENT.lastIndex = i;
  const ident = IDENT.exec(expr);
  if (ident && !WORD_CHAR.test(expr.charAt(i + ident[0].length))) {
    tokens.push({ kind: "ident", text: ident[0], pos });
    return i + ident[0].length;
  }
  if (ident || num) {
    let j = i;
    while (j < expr.length && WORD_CHAR.test(expr.charAt(j))) j++;
    throw filterError(`'${expr.slice(i, j)}' at character ${pos} is neither a field name nor a number.`);
  }
  throw filterError(`unexpected character '${expr.charAt(i)}' at character ${pos}.`);
}

/**
 * Reads a quoted string starting at `start`. `\'`, `\"` and `\\` are escapes, `\*` is a literal asterisk; any other
 * backslash is kept as written so values such as `DOMAIN\user` need no escaping.
 */
function readString(expr: string, start: number): { literal: StringLiteral; next: number } {
  const quote = expr.charAt(start);
  const parts: string[] = [];
  let current = "";
  let i = start + 1;
  while (i < expr.length) {
    const ch = expr.charAt(i);
    if (ch === quote) {
      parts.push(current);
      return { literal: { kind: "string", text: expr.slice(start, i + 1), parts }, next: i + 1 };
    }
    if (ch === "\\" && i + 1 < expr.length) {
      const escaped = expr.charAt(i + 1);
      if (escaped === "'" || escaped === '"' || escaped === "\\" || escaped === "*") {
        current += escaped;
        i += 2;
        continue;
      }
    }
    if (ch === "*") {
      parts.push(current);
      current = "";
    } else {
      current += ch;
    }
    i++;
  }
  throw filterError(`unterminated string: the quote ${quote} at character ${start + 1} is never closed.`);
}
