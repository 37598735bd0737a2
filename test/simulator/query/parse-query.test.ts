import { describe, expect, it } from "vitest";
import { parseQuery } from "../../../src/simulator/query/index.js";
import { httpError } from "./request.js";

describe("parseQuery", () => {
  it.each([
    ["names=fs1%2Cfs+2", "names", ["fs1", "fs 2"]],
    ["names=fs1,fs2", "names", ["fs1", "fs2"]],
    ["names=a%2C%2Cb%2C", "names", ["a", "b"]],
    ["names=%27quoted%27", "names", ["'quoted'"]],
    ["names=", "names", []],
    ["other=x", "names", undefined],
  ])("splits %s into a list after decoding", (search, name, expected) => {
    expect(parseQuery(search).list(name)).toEqual(expected);
  });

  it("decodes + as a space and percent escapes in plain strings", () => {
    const query = parseQuery("filter=name%3D%27fs%2A%27+and+destroyed%3Dfalse");
    expect(query.string("filter")).toBe("name='fs*' and destroyed=false");
    expect(query.has("filter")).toBe(true);
    expect(query.has("sort")).toBe(false);
  });

  it("tolerates a leading question mark and keeps the last of repeated keys", () => {
    const query = parseQuery("?limit=1&limit=5");
    expect(query.int("limit")).toBe(5);
    expect(query.raw.get("limit")).toBe("5");
  });

  it.each([
    ["true", true],
    ["TRUE", true],
    ["False", false],
    ["false", false],
  ])("reads bool %s", (value, expected) => {
    expect(parseQuery(`total=${value}`).bool("total")).toBe(expected);
  });

  it.each([
    ["0", 0],
    ["1000", 1000],
    ["-3", -3],
    ["%2B7", 7],
  ])("reads int %s", (value, expected) => {
    expect(parseQuery(`limit=${value}`).int("limit")).toBe(expected);
  });

  it("treats a raw + as a space, so an unencoded +7 is not an integer", () => {
    expect(httpError(() => parseQuery("limit=+7").int("limit")).message).toContain('" 7" is not an integer');
  });

  it("answers undefined for absent bool and int parameters", () => {
    const query = parseQuery("");
    expect(query.bool("total")).toBeUndefined();
    expect(query.int("limit")).toBeUndefined();
  });

  it.each([
    [
      "total",
      "yes",
      "bool",
      "Invalid value for query parameter 'total': \"yes\" is not a boolean (use true or false).",
    ],
    [
      "total",
      "1",
      "bool",
      "Invalid value for query parameter 'total': \"1\" is not a boolean (use true or false).",
    ],
    [
      "total",
      "",
      "bool",
      "Invalid value for query parameter 'total': \"\" is not a boolean (use true or false).",
    ],
    ["limit", "ten", "int", "Invalid value for query parameter 'limit': \"ten\" is not an integer."],
    ["limit", "1.5", "int", "Invalid value for query parameter 'limit': \"1.5\" is not an integer."],
    ["limit", "1e3", "int", "Invalid value for query parameter 'limit': \"1e3\" is not an integer."],
    ["start", "", "int", "Invalid value for query parameter 'start': \"\" is not an integer."],
    [
      "start",
      "99999999999999999999",
      "int",
      "Invalid value for query parameter 'start': \"99999999999999999999\" is not an integer.",
    ],
  ] as const)("rejects %s=%s as a %s with a 400 naming both", (name, value, kind, message) => {
    const query = parseQuery(`${name}=${encodeURIComponent(value)}`);
    const err = httpError(() => (kind === "bool" ? query.bool(name) : query.int(name)));
    expect(err.status).toBe(400);
    expect(err.message).toBe(message);
    expect(err.context).toBe(name);
  });
});
