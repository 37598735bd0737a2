/**
 * The translation the generation-neutral tests rely on (wire.ts), pinned to literal lines of both generations
 * (docs/generations.md's table), so a 2.x expectation never rests on the dialect alone: on 1.x a line is kept as
 * written, on 2.x it reads as a 2.x array receives it.
 */
import { describe, expect, test } from "vitest";
import { key1x, onWire, queryOf, REST2, SIM_VERSION, wirePath } from "./wire.js";

describe("a 1.x request line on the run's wire", () => {
  const lines: [string, string][] = [
    [
      "PATCH /api/1.12/file-systems?name=home&ignore_usage=true",
      "PATCH /api/2.28/file-systems?names=home&ignore_usage=true",
    ],
    ['PATCH /api/1.12/smtp {"relay_host":"x"}', 'PATCH /api/2.28/smtp-servers {"relay_host":"x"}'],
    [
      'POST /api/1.12/file-systems {"name":"a","provisioned":1}',
      'POST /api/2.28/file-systems?names=a {"provisioned":1}',
    ],
    [
      "POST /api/1.12/file-system-snapshots?sources=home (on lab-2)",
      "POST /api/2.28/file-system-snapshots?source_names=home (on lab-2)",
    ],
  ];
  test.each(lines)("%s", (one, two) => {
    expect(onWire(one)).toBe(REST2 ? two : one);
  });

  test("paths, queries and logged keys follow the same reading", () => {
    expect(wirePath("GET", "/api/1.12/smtp")).toBe(REST2 ? "/api/2.28/smtp-servers" : "/api/1.12/smtp");
    expect(queryOf("DELETE /api/1.12/file-systems?name=media")).toBe(REST2 ? "names=media" : "name=media");
    expect(key1x("PATCH", "/api/2.28/smtp-servers")).toBe("PATCH /smtp");
    expect(key1x("PATCH", "/api/1.12/smtp")).toBe("PATCH /smtp");
    expect(key1x("GET", "/api/api_version")).toBeUndefined();
    expect(SIM_VERSION).toBe(REST2 ? "2.28" : "1.12");
  });
});
