import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileFilter } from "../../../src/simulator/query/index.js";
import { SimHttpError } from "../../../src/simulator/types.js";

const samples: object[] = [
  {
    name: "fs1",
    provisioned: 10,
    flagged: true,
    space: { virtual: 5 },
    user: { name: "Al'ice" },
    services: ["nfs"],
  },
  { name: "a*b (c)", provisioned: 0, flagged: false, nfs: { enabled: true }, source: null },
  { name: "", provisioned: -3.5, space: { virtual: null }, services: [] },
  {},
];

const hostile = fc.constantFrom(
  "a",
  "B",
  "z",
  "1",
  "'",
  '"',
  "\\",
  "*",
  "(",
  ")",
  " ",
  ",",
  "=",
  "and",
  " or ",
  "é",
);
const field = fc.constantFrom(
  "name",
  "provisioned",
  "flagged",
  "space.virtual",
  "user.name",
  "missing",
  "nfs.enabled",
  "services",
  "source",
);
const op = fc.constantFrom("=", "!=", "<", ">", "<=", ">=");
const space = fc.constantFrom("", " ", "  ");

function quote(text: string, q: "'" | '"'): string {
  return q + text.replaceAll("\\", "\\\\").replaceAll(q, `\\${q}`) + q;
}

const quoted = fc
  .tuple(fc.string({ unit: hostile, maxLength: 6 }), fc.constantFrom<"'" | '"'>("'", '"'))
  .map(([text, q]) => quote(text, q));
const value = fc.oneof(
  quoted,
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.constantFrom("1.5", "0.25", "true", "false", "TRUE", "'True'", "'10'"),
);

/** Well-formed expressions drawn from the grammar, with random spacing and keyword case. */
const expression = fc.letrec<{ expr: string; leaf: string }>((tie) => ({
  leaf: fc.oneof(
    fc.tuple(field, space, op, space, value).map((parts) => parts.join("")),
    fc.tuple(field, space, quoted).map(([f, s, q]) => `contains(${f},${s}${q})`),
    field,
  ),
  expr: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    tie("leaf"),
    fc
      .tuple(tie("expr"), fc.constantFrom("and", "AND", "or", "Or"), tie("expr"))
      .map(([a, k, b]) => `${a} ${k} ${b}`),
    tie("expr").map((e) => `not(${e})`),
    tie("expr").map((e) => `(${e})`),
  ),
})).expr;

function compilesOrRejects(expr: string): void {
  let matches: ((item: object) => boolean) | undefined;
  try {
    matches = compileFilter(expr);
  } catch (err) {
    expect(err).toBeInstanceOf(SimHttpError);
    expect((err as SimHttpError).status).toBe(400);
    expect((err as SimHttpError).message).toMatch(/^Invalid filter: .+\.$/);
    return;
  }
  for (const item of samples) expect(typeof matches(item)).toBe("boolean");
}

describe("filter grammar properties", () => {
  it("compiles every well-formed expression and evaluates it to a boolean", () => {
    fc.assert(
      fc.property(expression, (expr) => {
        const matches = compileFilter(expr);
        for (const item of samples) expect(typeof matches(item)).toBe("boolean");
      }),
      { numRuns: 500 },
    );
  });

  it("composes: and, or and not agree with the parts", () => {
    fc.assert(
      fc.property(expression, expression, (a, b) => {
        const [fa, fb] = [compileFilter(a), compileFilter(b)];
        const both = compileFilter(`(${a}) and (${b})`);
        const either = compileFilter(`(${a})or(${b})`);
        const neither = compileFilter(`not(${a})`);
        for (const item of samples) {
          expect(both(item)).toBe(fa(item) && fb(item));
          expect(either(item)).toBe(fa(item) || fb(item));
          expect(neither(item)).toBe(!fa(item));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("never crashes on damaged expressions: each compiles or is a 400", () => {
    const damaged = fc
      .tuple(expression, fc.nat(), fc.constantFrom("delete", "insert", "truncate"), hostile)
      .map(([expr, at, how, text]) => {
        const i = at % (expr.length + 1);
        if (how === "delete") return expr.slice(0, i) + expr.slice(i + 1);
        if (how === "insert") return expr.slice(0, i) + text + expr.slice(i);
        return expr.slice(0, i);
      });
    fc.assert(fc.property(damaged, compilesOrRejects), { numRuns: 1000 });
  });

  it("never crashes on arbitrary text", () => {
    fc.assert(fc.property(fc.string({ maxLength: 40 }), compilesOrRejects), { numRuns: 500 });
    fc.assert(fc.property(fc.string({ unit: hostile, maxLength: 20 }), compilesOrRejects), { numRuns: 500 });
  });

  it("matches any name exactly once it is quoted with escapes", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", maxLength: 12 }),
        fc.constantFrom<"'" | '"'>("'", '"'),
        (name, q) => {
          const literal = quote(name, q).replaceAll("*", "\\*");
          const matches = compileFilter(`name=${literal}`);
          expect(matches({ name })).toBe(true);
          expect(matches({ name: `${name}x` })).toBe(false);
          expect(compileFilter(`contains(name, ${literal})`)({ name: `<${name}>` })).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
