import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { errorCode } from "../../src/errors.js";
import {
  and,
  anyOf,
  contains,
  eq,
  gt,
  isTrue,
  like,
  ne,
  not,
  or,
  quote,
} from "../../src/flashblade/filter.js";
import { compileFilter } from "../../src/simulator/query/index.js";

const matches = (expr: string, item: object) => compileFilter(expr)(item);

describe("filter builder", () => {
  it("quotes and escapes string values", () => {
    expect(eq("name", "fs1")).toBe("name='fs1'");
    expect(quote(`it's`)).toBe(`'it\\'s'`);
    expect(quote("a\\b")).toBe("'a\\\\b'");
    expect(eq("name", `x') or name=('y`)).toBe(`name='x\\') or name=(\\'y'`);
  });

  it("renders numbers and booleans bare and combines with parentheses", () => {
    expect(
      and(eq("state", "open"), or(eq("severity", "critical"), gt("notified", 5)), not(isTrue("flagged"))),
    ).toBe("(state='open') and ((severity='critical') or (notified>5)) and (not(flagged))");
    expect(eq("destroyed", false)).toBe("destroyed=false");
    expect(anyOf("name", [])).toBeUndefined();
    expect(anyOf("name", ["a"])).toBe("name='a'");
  });

  it("rejects field names outside the grammar", () => {
    for (const bad of ["Name", "name)", "a..b", "1abc", "name or 1", "", "a.b.", "x=y"]) {
      expect(() => eq(bad, "v"), bad).toThrow(/not a valid field name/);
    }
    expect(eq("space.unique", 1)).toBe("space.unique=1");
  });

  it("refuses * in exact comparisons with a user-facing error, allows it in like and contains", () => {
    let caught: unknown;
    try {
      eq("name", "fs*");
    } catch (err) {
      caught = err;
    }
    expect(errorCode(caught)).toBe("FILTER_INVALID");
    expect(() => ne("name", "*")).toThrow(/wildcard/);
    expect(like("name", "fs*")).toBe("name='fs*'");
    expect(contains("name", "a*b")).toBe("contains(name,'a*b')");
    expect(() => gt("name", Number.NaN)).toThrow(/cannot be used/);
  });

  it("hostile names match exactly themselves under the simulator's grammar", () => {
    const hostile = [`it's`, `a"b`, "x) or (name='y", "p and q", "back\\slash", "trail\\", "'", "))", `\\'`];
    for (const name of hostile) {
      const expr = eq("name", name);
      expect(matches(expr, { name }), name).toBe(true);
      expect(matches(expr, { name: `${name}x` }), name).toBe(false);
      expect(matches(expr, { name: "y" }), name).toBe(false);
    }
  });

  it("any string without * round-trips through the grammar (property)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 30 }).filter((s) => !s.includes("*")),
        fc.string({ maxLength: 5 }),
        (name, other) => {
          const expr = and(eq("name", name), not(eq("kind", "x")));
          expect(matches(expr, { name, kind: "y" })).toBe(true);
          if (other.toLowerCase() !== name.toLowerCase() && !other.includes("*")) {
            expect(matches(expr, { name: other, kind: "y" })).toBe(false);
          }
          expect(matches(contains("name", name), { name: `<${name}>` })).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("like keeps * as a wildcard but escapes everything else", () => {
    expect(matches(like("name", "it's*"), { name: "it's-here" })).toBe(true);
    expect(matches(like("name", "it's*"), { name: "its-here" })).toBe(false);
  });
});
