/**
 * The one operation table and the per-version dialects read from it: every parameter rename and path rename of
 * the 1.x → 2.x facts (read from the facts file here, not typed) comes out in both directions, and the envelope,
 * paging and error body differ by generation as the 2.x reference says.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { canonicalRequest, dialect } from "../../src/rest-spec/dialect.js";
import type { HttpMethod } from "../../src/rest-spec/endpoints.js";
import { ENDPOINTS_2X } from "../../src/rest-spec/endpoints-2x.js";
import { findOperation, OPERATIONS } from "../../src/rest-spec/operations.js";
import { KNOWN_VERSIONS, parseVersionRange } from "../../src/rest-spec/versions.js";

const REPO = join(import.meta.dirname, "..", "..");

const FACTS = join(REPO, "..", "shared", "reference", "flashblade-rest-2x");

function tsv(name: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(join(FACTS, name), "utf8").split("\n").filter(Boolean);
  const cols = (head ?? "").split("\t");
  return lines.map((l) => {
    const cells = l.split("\t");
    return Object.fromEntries(cols.map((c, i) => [c, (cells[i] ?? "").trim()]));
  });
}

const below = (p: string) => p.replace(/^\/api\/<ver>/, "").replace(/^\/api(?=\/)/, "");
const mapping = tsv("mapping-1x-2x.tsv");

describe("the operation table", () => {
  test("holds every 2.x operation of the facts once, and every 1.x endpoint-method as one of them", () => {
    const facts = tsv("endpoints.tsv");
    expect(ENDPOINTS_2X).toHaveLength(facts.length);
    expect(new Set(OPERATIONS.map((o) => o.id)).size).toBe(OPERATIONS.length);
    for (const f of facts) {
      const op = findOperation(f.method as HttpMethod, below(f.path as string));
      expect(op?.v2?.since, `${f.method} ${f.path}`).toBe(f.first);
    }
    for (const m of mapping) {
      const op = findOperation(m.method as HttpMethod, below(m.path_1x as string));
      expect(op?.path, `${m.method} ${m.path_1x}`).toBe(below(m.path_2x as string));
      expect(op?.v1?.since).toBe(m.since_1x);
    }
  });

  test("KNOWN_VERSIONS covers 1.0–1.12 and 2.0–2.28, and ranges take both generations", () => {
    expect(KNOWN_VERSIONS).toContain("2.0");
    expect(KNOWN_VERSIONS.at(-1)).toBe("2.28");
    expect(parseVersionRange("2.0-2.24")).toHaveLength(25);
    const both = parseVersionRange("1.0-1.12,2.0-2.24");
    expect(both).toHaveLength(14 + 25);
    expect(both.slice(12, 16)).toEqual(["1.11", "1.12", "2.0", "2.1"]);
  });
});

describe("the dialect of a version", () => {
  test("names each renamed path and parameter of the facts in both directions", () => {
    const v1 = dialect("1.12");
    const v2 = dialect("2.28");
    let renames = 0;
    for (const m of mapping) {
      const op = findOperation(m.method as HttpMethod, below(m.path_1x as string));
      if (!op) throw new Error(`${m.method} ${m.path_1x} missing`);
      expect(v1.path(op)).toBe(below(m.path_1x as string));
      expect(v2.path(op)).toBe(below(m.path_2x as string));
      for (const pair of (m.param_renames ?? "").split(",").filter(Boolean)) {
        const [old, now] = pair.split(">") as [string, string];
        expect(v2.wireName(op, old), `${op.id} ${pair}`).toBe(now);
        expect(v1.wireName(op, now), `${op.id} ${pair}`).toBe(old);
        expect(v1.canonicalName(op, old)).toBe(now);
        expect(v2.canonicalName(op, now)).toBe(now);
        renames++;
      }
    }
    expect(renames).toBeGreaterThan(130);
  });

  test("the named renames: /smtp, api tokens, expose, snapshot sources, paging", () => {
    const smtp = findOperation("PATCH", "/smtp");
    expect(smtp && dialect("2.0").path(smtp)).toBe("/smtp-servers");
    expect(smtp && dialect("1.3").path(smtp)).toBe("/smtp");
    const admins = findOperation("GET", "/admins");
    if (!admins) throw new Error("no GET /admins");
    expect(dialect("2.28").toWire(admins, { expose: true, token: "t", start: 5 })).toEqual({
      expose_api_token: true,
      continuation_token: "t",
      offset: 5,
    });
    expect(dialect("1.12").toWire(admins, { expose_api_token: true, continuation_token: "t" })).toEqual({
      expose: true,
      token: "t",
    });
    const snap = findOperation("POST", "/file-system-snapshots");
    expect(snap && dialect("2.5").toWire(snap, { sources: ["a"] })).toEqual({ source_names: ["a"] });
    const tokens = findOperation("GET", "/admins/api-tokens");
    expect(tokens?.v1).toBeUndefined();
    expect(tokens && dialect("2.0").serves(tokens)).toBe(true);
    expect(tokens && dialect("1.12").serves(tokens)).toBe(false);
  });

  test("parameters added later exist only from their version", () => {
    const fs = findOperation("GET", "/file-systems");
    if (!fs) throw new Error("no GET /file-systems");
    expect(dialect("2.16").params(fs)).not.toHaveProperty("allow_errors");
    expect(dialect("2.17").params(fs)).toHaveProperty("allow_errors", "boolean");
    expect(dialect("1.12").params(fs)).toHaveProperty("token", "string");
  });

  test("envelope, paging and errors per generation", () => {
    expect(
      dialect("1.12").readPage({ pagination_info: { continuation_token: "a", total_item_count: 3 } }),
    ).toEqual({ continuationToken: "a", totalItemCount: 3 });
    expect(dialect("2.3").readPage({ continuation_token: "a", total_item_count: 3 })).toEqual({
      continuationToken: "a",
      totalItemCount: 3,
    });
    expect(dialect("2.3").readPage({ pagination_info: { continuation_token: "a" } })).toEqual({});
    expect(dialect("2.3").envelope([1], { totalItemCount: 1 })).toEqual({ items: [1], total_item_count: 1 });
    expect(dialect("1.12").envelope([1], { totalItemCount: 1 })).toEqual({
      items: [1],
      pagination_info: { continuation_token: null, total_item_count: 1 },
    });
    expect(dialect("2.28").errorBody(403, "no", "x")).toEqual({
      message: "no",
      errors: [{ context: "x", message: "no" }],
    });
    expect(dialect("2.28").errorBody(400, "no", "x")).toEqual({ errors: [{ context: "x", message: "no" }] });
    expect(dialect("2.0").paging).toEqual({ token: "continuation_token", offset: "offset" });
    expect(dialect("1.0").paging).toEqual({ token: "token", offset: "start" });
  });
});

describe("a request in canonical terms", () => {
  test("reads the version from the path, or both generations' names without one", () => {
    const raw = canonicalRequest("GET", "/api/2.24/admins/api-tokens", { expose_api_token: "true" });
    expect(raw?.op.id).toBe("admins.api-tokens.get");
    expect(raw?.query).toEqual({ expose_api_token: "true" });
    expect(canonicalRequest("GET", "/api/1.12/admins", { expose: "1" })?.query).toEqual({
      expose_api_token: "1",
    });
    expect(canonicalRequest("GET", "/admins", { expose: "1" })?.query).toHaveProperty(
      "expose_api_token",
      "1",
    );
    expect(canonicalRequest("PATCH", "/smtp")?.op.path).toBe("/smtp-servers");
    expect(canonicalRequest("GET", "/no-such-thing")).toBeUndefined();
  });
});
