import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ENDPOINTS, type EndpointSpec, type ParamKind } from "../src/rest-spec/endpoints.js";
import { compareVersions, endpointAvailable, parseVersionRange } from "../src/rest-spec/versions.js";

describe("versions", () => {
  it("orders versions numerically, not lexically", () => {
    expect(compareVersions("1.10", "1.9")).toBe(1);
    expect(compareVersions("1.8.1", "1.8")).toBe(1);
    expect(compareVersions("1.2", "1.2")).toBe(0);
  });

  it("expands ranges to the known versions", () => {
    expect(parseVersionRange("1.0-1.12")).toHaveLength(14);
    expect(parseVersionRange("1.4,1.8")).toEqual(["1.4", "1.8"]);
    expect(parseVersionRange("1.7-1.9")).toEqual(["1.7", "1.8", "1.8.1", "1.9"]);
  });

  it("gates endpoints by their first version", () => {
    expect(endpointAvailable("GET", "/lifecycle-rules", "1.9")).toBe(false);
    expect(endpointAvailable("GET", "/lifecycle-rules", "1.10")).toBe(true);
    expect(endpointAvailable("DELETE", "/file-systems", "1.0")).toBe(false);
    expect(endpointAvailable("GET", "/no-such-thing", "1.12")).toBe(false);
  });

  it("holds every method and path of the reference table", () => {
    expect(ENDPOINTS.length).toBe(204);
    const keys = new Set(ENDPOINTS.map((e) => `${e.method} ${e.path}`));
    expect(keys.size).toBe(ENDPOINTS.length);
  });

  it("matches the reference table row by row: method, path, first version, parameters, models", () => {
    const reference = readReferenceTable();
    expect(reference).toHaveLength(ENDPOINTS.length);
    const ours = new Map(ENDPOINTS.map((e) => [`${e.method} ${e.path}`, e]));
    for (const row of reference) {
      const key = `${row.method} ${row.path}`;
      const endpoint = ours.get(key);
      expect(endpoint, key).toBeDefined();
      expect(rowOf(endpoint as EndpointSpec), key).toEqual(row);
    }
  });
});

interface ReferenceRow {
  readonly method: string;
  readonly path: string;
  readonly since: string;
  readonly versioned: boolean;
  /** Name and kind pairs in the order the SDK sends them. */
  readonly params: readonly (readonly [string, ParamKind])[];
  readonly body: string | undefined;
  readonly response: string | undefined;
}

// The appendix sits beside the clone (../shared), in CI as on a workstation.
const REFERENCE = new URL("../../shared/reference/flashblade-endpoints.md", import.meta.url);
const ROW =
  /^\| (GET|POST|PATCH|DELETE) \| `\/api(\/<ver>)?(\/[^`]*)` \| ([0-9.]+) \| ([^|]*)\| ([^|]*)\| ([^|]*)\|$/;

function readReferenceTable(): ReferenceRow[] {
  const rows: ReferenceRow[] = [];
  for (const line of readFileSync(REFERENCE, "utf8").split("\n")) {
    if (!/^\| (GET|POST|PATCH|DELETE) \|/.test(line)) continue;
    const m = ROW.exec(line);
    if (!m) throw new Error(`unparsed reference row: ${line}`);
    const [, method = "", ver, path = "", since = "", params = "", body = "", response = ""] = m;
    rows.push({
      method,
      path,
      since,
      versioned: ver !== undefined,
      params: parseParams(params),
      body: body.trim() || undefined,
      response: response.trim() === "None" ? undefined : response.trim() || undefined,
    });
  }
  return rows;
}

function parseParams(cell: string): (readonly [string, ParamKind])[] {
  const text = cell.trim();
  if (text === "") return [];
  return text.split(",").map((raw) => {
    const token = raw.trim();
    if (token.endsWith("[]")) return [token.slice(0, -2), "list"] as const;
    if (token.endsWith("(int)")) return [token.slice(0, -5), "integer"] as const;
    if (token.endsWith("(bool)")) return [token.slice(0, -6), "boolean"] as const;
    if (!/^[a-z_]+$/.test(token)) throw new Error(`unknown parameter notation: ${token}`);
    return [token, "string"] as const;
  });
}

function rowOf(e: EndpointSpec): ReferenceRow {
  return {
    method: e.method,
    path: e.path,
    since: e.since,
    versioned: e.versioned,
    params: Object.entries(e.params),
    body: e.body,
    response: e.response,
  };
}
