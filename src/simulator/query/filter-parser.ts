/**
 * Recursive-descent parser for the 1.x filter grammar:
 *   expr    := and ("or" and)*
 *   and     := unary ("and" unary)*
 *   unary   := "not" "(" expr ")" | primary
 *   primary := "(" expr ")" | "contains" "(" field "," literal ")" | field [op literal]
 * `and` binds tighter than `or` (PSSDK2). Keywords are case-insensitive.
 */
import { describeToken, filterError, type Operator, type Token, tokenize } from "./filter-lexer.js";

export type Literal =
  | { readonly kind: "string"; readonly parts: readonly string[] }
  | { readonly kind: "number"; readonly value: number }
  | { readonly kind: "boolean"; readonly value: boolean };

export type FilterNode =
  | { readonly kind: "or" | "and"; readonly terms: readonly FilterNode[] }
  | { readonly kind: "not"; readonly term: FilterNode }
  | { readonly kind: "compare"; readonly field: string; readonly op: Operator; readonly value: Literal }
  | { readonly kind: "contains"; readonly field: string; readonly text: string }
  | { readonly kind: "truthy"; readonly field: string };

// Deep enough for any real filter, shallow enough that hostile input cannot overflow the stack.
const MAX_DEPTH = 64;

export function parseFilter(expr: string): FilterNode {
  const tokens = tokenize(expr);
  if (tokens.length === 1) throw filterError("the expression is empty.");
  const parser = new Parser(tokens);
  const node = parser.expression(0);
  const rest = parser.peek();
  if (rest.kind === ")") {
    throw filterError(`unbalanced parentheses: ')' at character ${rest.pos} has no matching '('.`);
  }
  if (rest.kind !== "end") {
    throw filterError(
      `unexpected ${describeToken(rest)} after a complete condition (join conditions with and / or).`,
    );
  }
  return node;
}

function isKeyword(token: Token, word: string): boolean {
  return token.kind === "ident" && token.text.toLowerCase() === word;
}

class Parser {
  private index = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  peek(): Token {
    // The token list always ends with an "end" token and the parser never advances past it.
    return this.tokens[Math.min(this.index, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== "end") this.index++;
    return token;
  }

  expression(depth: number): FilterNode {
    if (depth > MAX_DEPTH) {
      throw filterError(`the expression is nested more than ${MAX_DEPTH} levels deep.`);
    }
    const terms = [this.conjunction(depth)];
    while (isKeyword(this.peek(), "or")) {
      this.next();
      terms.push(this.conjunction(depth));
    }
    return terms.length === 1 ? terms[0]! : { kind: "or", terms };
  }

  private conjunction(depth: number): FilterNode {
    const terms = [this.unary(depth)];
    while (isKeyword(this.peek(), "and")) {
      this.next();
      terms.push(this.unary(depth));
    }
    return terms.length === 1 ? terms[0]! : { kind: "and", terms };
  }

  private unary(depth: number): FilterNode {
    const token = this.peek();
    if (isKeyword(token, "not")) {
      this.next();
      const open = this.expect("(", "after 'not'");
      const term = this.expression(depth + 1);
      this.close(open);
      return { kind: "not", term };
    }
    return this.primary(depth);
  }

  private primary(depth: number): FilterNode {
    const token = this.next();
    if (token.kind === "(") {
      const node = this.expression(depth + 1);
      this.close(token);
      return node;
    }
    if (isKeyword(token, "contains")) {
      const open = this.expect("(", "after 'contains'");
      const field = this.field("as the first argument of contains");
      this.expect(",", "between the arguments of contains");
      const value = this.literal();
      this.close(open);
      const text = value.kind === "string" ? value.parts.join("*") : String(value.value);
      return { kind: "contains", field, text };
    }
    if (token.kind === "ident") {
      if (isKeyword(token, "and") || isKeyword(token, "or")) {
        throw filterError(`expected a condition before '${token.text}' at character ${token.pos}.`);
      }
      const op = this.peek();
      if (op.kind !== "op") return { kind: "truthy", field: token.text };
      this.next();
      return { kind: "compare", field: token.text, op: op.text, value: this.literal() };
    }
    throw this.unexpected(token, "a field name, not(…), contains(…) or '('");
  }

  private field(where: string): string {
    const token = this.next();
    if (token.kind !== "ident") throw this.unexpected(token, `a field name ${where}`);
    return token.text;
  }

  private literal(): Literal {
    const token = this.next();
    if (token.kind === "string") return { kind: "string", parts: token.parts };
    if (token.kind === "number") return { kind: "number", value: token.value };
    if (isKeyword(token, "true")) return { kind: "boolean", value: true };
    if (isKeyword(token, "false")) return { kind: "boolean", value: false };
    if (token.kind === "ident") {
      throw filterError(
        `the value '${token.text}' at character ${token.pos} must be quoted ('${token.text}'), a number, true or false.`,
      );
    }
    throw this.unexpected(token, "a quoted string, a number, true or false");
  }

  private expect(kind: "(" | ",", where: string): Token {
    const token = this.next();
    if (token.kind !== kind) throw this.unexpected(token, `'${kind}' ${where}`);
    return token;
  }

  private close(open: Token): void {
    const token = this.next();
    if (token.kind === ")") return;
    if (token.kind === "end") {
      throw filterError(`unbalanced parentheses: '(' at character ${open.pos} is never closed.`);
    }
    throw this.unexpected(token, `')' to close the '(' at character ${open.pos}`);
  }

  private unexpected(token: Token, expected: string): Error {
    if (token.kind === "end") return filterError(`the expression ends too early; expected ${expected}.`);
    if (token.kind === ")") {
      return filterError(`unexpected ')' at character ${token.pos}; expected ${expected}.`);
    }
    return filterError(`expected ${expected}, found ${describeToken(token)}.`);
  }
}
