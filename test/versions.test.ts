import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "../src/flashblade/endpoints.js";
import { compareVersions, endpointAvailable, parseVersionRange } from "../src/flashblade/versions.js";

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
});
