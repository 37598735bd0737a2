import { describe, expect, it } from "vitest";
import { compileFilter } from "../../../src/simulator/query/index.js";
import { httpError } from "./request.js";

const errors: [string, string][] = [
  ["", "the expression is empty."],
  ["   ", "the expression is empty."],
  ["(name='a'", "unbalanced parentheses: '(' at character 1 is never closed."],
  ["not(name='a'", "unbalanced parentheses: '(' at character 4 is never closed."],
  ["name='a')", "unbalanced parentheses: ')' at character 9 has no matching '('."],
  ["(a) or b)", "unbalanced parentheses: ')' at character 9 has no matching '('."],
  ["()", "unexpected ')' at character 2; expected a field name, not(…), contains(…) or '('."],
  ["name='a", "unterminated string: the quote ' at character 6 is never closed."],
  ['name="a\\"', 'unterminated string: the quote " at character 6 is never closed.'],
  ["name=='a'", "unknown operator '==' at character 5 (use =, !=, <, >, <= or >=)."],
  ["name~'a'", "unknown operator '~' at character 5 (use =, !=, <, >, <= or >=)."],
  ["name<>'a'", "unknown operator '<>' at character 5 (use =, !=, <, >, <= or >=)."],
  ["a && b", "unknown operator '&&' at character 3 (use =, !=, <, >, <= or >=)."],
  [
    "name='a' 'b'",
    "unexpected ''b'' at character 10 after a complete condition (join conditions with and / or).",
  ],
  [
    "name='a' flagged",
    "unexpected 'flagged' at character 10 after a complete condition (join conditions with and / or).",
  ],
  ["name=open", "the value 'open' at character 6 must be quoted ('open'), a number, true or false."],
  ["name=", "the expression ends too early; expected a quoted string, a number, true or false."],
  ["name='a' and", "the expression ends too early; expected a field name, not(…), contains(…) or '('."],
  ["and name='a'", "expected a condition before 'and' at character 1."],
  ["name='a' or or b", "expected a condition before 'or' at character 13."],
  ["not flagged", "expected '(' after 'not', found 'flagged' at character 5."],
  ["contains(name)", "unexpected ')' at character 14; expected ',' between the arguments of contains."],
  [
    "contains('x', name)",
    "expected a field name as the first argument of contains, found ''x'' at character 10.",
  ],
  ["contains(name, 'a', 'b')", "expected ')' to close the '(' at character 9, found ',' at character 19."],
  ["'a'=name", "expected a field name, not(…), contains(…) or '(', found ''a'' at character 1."],
  ["5=provisioned", "expected a field name, not(…), contains(…) or '(', found '5' at character 1."],
  ["name='a' # comment", "unexpected character '#' at character 10."],
  ["na-me='a'", "unexpected character '-' at character 3."],
  ["1abc=2", "'1abc' at character 1 is neither a field name nor a number."],
  ["space.=1", "'space.' at character 1 is neither a field name nor a number."],
  ["name=1.2.3", "'1.2.3' at character 6 is neither a field name nor a number."],
  [`${"(".repeat(70)}a${")".repeat(70)}`, "the expression is nested more than 64 levels deep."],
];

describe("compileFilter errors", () => {
  it.each(errors)("%j is a 400: %s", (expr, message) => {
    const err = httpError(() => compileFilter(expr));
    expect(err.status).toBe(400);
    expect(err.message).toBe(`Invalid filter: ${message}`);
    expect(err.context).toBe("filter");
  });

  it("accepts nesting up to the limit", () => {
    const expr = `${"not(".repeat(60)}flagged${")".repeat(60)}`;
    expect(compileFilter(expr)({ flagged: true })).toBe(true);
  });
});
