import { afterEach, describe, expect, it } from "vitest";
import { errorCode } from "../../src/errors.js";
import { createArrayPool, suggestNames } from "../../src/flashblade/pool.js";
import type { ArrayPool } from "../../src/flashblade/types.js";
import { silentLogger } from "../../src/logger.js";
import { arrayConfig, thrown } from "./helpers.js";

let pool: ArrayPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

function makePool(): ArrayPool {
  pool = createArrayPool(
    [
      arrayConfig({ name: "fb-prod-01", tags: ["prod"] }),
      arrayConfig({ name: "fb-prod-02", tags: ["prod", "east"] }),
      arrayConfig({ name: "fb-dr-01", tags: ["dr"] }),
      arrayConfig({ name: "fb-lab", tags: [] }),
    ],
    { logger: silentLogger() },
  );
  return pool;
}

describe("array pool", () => {
  it("selects by name, list, tag and all, without duplicates and in order", () => {
    const p = makePool();
    const names = (spec: string) => p.select(spec).map((c) => c.name);
    expect(names("fb-lab")).toEqual(["fb-lab"]);
    expect(names("FB-LAB")).toEqual(["fb-lab"]);
    expect(names("fb-dr-01, fb-prod-01")).toEqual(["fb-dr-01", "fb-prod-01"]);
    expect(names("tag:prod")).toEqual(["fb-prod-01", "fb-prod-02"]);
    expect(names("tag:prod,fb-prod-02,tag:dr")).toEqual(["fb-prod-01", "fb-prod-02", "fb-dr-01"]);
    expect(names("all")).toHaveLength(4);
    expect(p.list().map((c) => c.tags)).toEqual([["prod"], ["prod", "east"], ["dr"], []]);
  });

  it("an unknown name is ARRAY_UNKNOWN with did-you-mean", () => {
    const p = makePool();
    const err = thrown(() => p.get("fb-prd-01"));
    expect(err.code).toBe("ARRAY_UNKNOWN");
    expect(err.suggestions[0]).toBe("fb-prod-01");
    expect(err.message).toContain('Did you mean "fb-prod-01"');
    expect(errorCode(thrown(() => p.select("fb-lab,nope")))).toBe("ARRAY_UNKNOWN");
    const noTag = thrown(() => p.select("tag:prd"));
    expect(noTag.message).toContain("Tags in use: dr, east, prod");
    expect(noTag.suggestions[0]).toBe("tag:prod");
    expect(thrown(() => p.get("zzzzzzzz")).message).toContain("Known arrays: fb-prod-01");
    expect(errorCode(thrown(() => p.select(" , ")))).toBe("ARRAY_UNKNOWN");
  });

  it("reports health before any call as unknown with nothing in flight", () => {
    const p = makePool();
    expect(p.health()[0]).toEqual({
      name: "fb-prod-01",
      tags: ["prod"],
      status: "unknown",
      // An array is reachable once it has answered, not before.
      reachable: false,
      auth: "api_token",
      latencyMs: { samples: 0 },
      inFlight: 0,
      queued: 0,
    });
  });

  it("suggests close names only", () => {
    expect(suggestNames("lab", ["fb-lab", "fb-prod"])).toEqual(["fb-lab"]);
    expect(suggestNames("qqq", ["fb-lab", "fb-prod"])).toEqual([]);
  });
});
