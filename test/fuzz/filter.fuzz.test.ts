/**
 * The filter builder against the simulator's filter parser and evaluator (the grammar real arrays speak):
 * names full of quotes, backslashes, `*`, commas, parentheses, `and`/`or`/`not(` and odd Unicode always build
 * an expression that parses and selects exactly the object named, never more. A `*` in an exact comparison is
 * refused with a user-facing error instead of silently widening the match.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UserFacingError } from "../../src/errors.js";
import { and, contains, eq, like, ne, not, or } from "../../src/flashblade/filter.js";
import { compileFilter } from "../../src/simulator/query/index.js";

const hostilePiece = fc.constantFrom(
  "'",
  '"',
  "\\",
  "\\'",
  ",",
  "(",
  ")",
  " and ",
  " or ",
  "not(",
  "contains(",
  "=",
  "!=",
  "<=",
  " ",
  "\t",
  "é",
  "名前",
  "🚀",
  "\u200b",
  "\u0000",
  "true",
  "1e3",
  "name='x'",
);
/** Text built from hostile pieces and arbitrary characters. */
const hostile = fc
  .array(fc.oneof(hostilePiece, fc.string({ unit: "grapheme", maxLength: 4 })), {
    minLength: 1,
    maxLength: 8,
  })
  .map((parts) => parts.join(""));
const starless = hostile.map((s) => s.replace(/\*/g, "")).filter((s) => s.length > 0);

const fs = (name: string) => ({ name, destroyed: false, provisioned: 1 });
const lower = (s: string) => s.toLowerCase();

describe("filter builder fuzz", () => {
  it("eq selects exactly the named object, whatever the name holds", () => {
    fc.assert(
      fc.property(starless, starless, (name, other) => {
        const match = compileFilter(eq("name", name));
        expect(match(fs(name))).toBe(true);
        // The array compares case-insensitively; any other name is never selected.
        if (lower(other) !== lower(name)) expect(match(fs(other))).toBe(false);
        expect(compileFilter(ne("name", name))(fs(name))).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it("eq and ne refuse a `*` with a user-facing error", () => {
    fc.assert(
      fc.property(hostile, hostile, (a, b) => {
        const value = `${a}*${b}`;
        for (const build of [eq, ne]) {
          let err: unknown;
          try {
            build("name", value);
          } catch (e) {
            err = e;
          }
          expect(err).toBeInstanceOf(UserFacingError);
        }
      }),
      { numRuns: 100 },
    );
  });

  it("like: `*` is the only wildcard; everything else is literal", () => {
    fc.assert(
      fc.property(fc.array(starless, { minLength: 1, maxLength: 4 }), starless, (pieces, filler) => {
        const pattern = pieces.join("*");
        const match = compileFilter(like("name", pattern));
        expect(match(fs(pieces.join(filler)))).toBe(true);
        expect(match(fs(pieces.join("")))).toBe(true);
        // A name that does not start with the first literal piece never matches.
        const first = pieces[0] ?? "";
        const stranger = `#${first}`;
        if (!lower(stranger).startsWith(lower(first))) expect(match(fs(stranger))).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("composed filters keep their boolean meaning around hostile names", () => {
    fc.assert(
      fc.property(starless, starless, hostile, (a, b, text) => {
        fc.pre(lower(a) !== lower(b));
        const f = and(or(eq("name", a), eq("name", b)), not(eq("name", b)), eq("destroyed", false));
        const match = compileFilter(f);
        expect(match(fs(a))).toBe(true);
        expect(match(fs(b))).toBe(false);
        expect(match({ ...fs(a), destroyed: true })).toBe(false);
        const c = compileFilter(contains("name", text));
        expect(c(fs(`x${text}y`))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("field names are never taken from user text unchecked", () => {
    fc.assert(
      fc.property(hostile, (field) => {
        fc.pre(!/^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$/.test(field));
        expect(() => eq(field, "x")).toThrow(UserFacingError);
      }),
      { numRuns: 100 },
    );
  });
});
