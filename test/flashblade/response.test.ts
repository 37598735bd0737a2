import { describe, expect, it } from "vitest";
import { describeErrors, rejected } from "../../src/flashblade/errors.js";
import { errorEntries, toItems, toPage } from "../../src/flashblade/response.js";
import { fileSystemSchema } from "../../src/flashblade/schemas.js";
import { thrown } from "./helpers.js";

describe("reading array responses", () => {
  it("reads error lists under errors or error, a single object, a string, or no JSON at all", () => {
    expect(
      errorEntries('{"errors":[{"context":"fs1","message":"File system \'fs1\' does not exist."}]}'),
    ).toEqual([{ context: "fs1", message: "File system 'fs1' does not exist." }]);
    expect(errorEntries('{"error":[{"context":"x","message":"bad","code":7}]}')[0]?.code).toBe(7);
    expect(errorEntries('{"error":{"message":"single"}}')[0]?.message).toBe("single");
    expect(errorEntries('{"error":"plain text"}')[0]?.message).toBe("plain text");
    expect(errorEntries("<html><body>502 Bad   Gateway</body></html>")[0]?.message).toBe(
      "<html><body>502 Bad Gateway</body></html>",
    );
    expect(errorEntries("")).toEqual([]);
    expect(errorEntries('{"errors":[{"context":null,"message":"m"}]}')).toEqual([
      { context: undefined, message: "m" },
    ]);
  });

  it("phrases a refusal with the array's name, message and context", () => {
    expect(
      rejected("fb-lab-01", 400, [{ context: "x", message: "File system 'x' does not exist." }], "").message,
    ).toBe("fb-lab-01 refused: File system 'x' does not exist.");
    expect(describeErrors([{ context: "quota", message: "Value too large." }, { message: "Second." }])).toBe(
      "Value too large. (quota); Second.",
    );
    expect(rejected("fb", 500, [], "HTTP 500").message).toBe("fb refused: HTTP 500");
  });

  it("reads the list envelope and turns nulls into undefined", () => {
    const page = toPage(
      "fb",
      "/file-systems",
      JSON.stringify({
        pagination_info: { continuation_token: null, total_item_count: 2 },
        total: { provisioned: 3 },
        items: [
          { name: "a", provisioned: 1, time_remaining: null, source: null, brand_new_field: { x: 1 } },
          { name: "b", provisioned: 2, nfs: { rules: null } },
        ],
      }),
      fileSystemSchema,
    );
    expect(page.totalItemCount).toBe(2);
    expect(page.continuationToken).toBeNull();
    expect(page.total).toEqual({ provisioned: 3 });
    expect(page.items[0]?.time_remaining).toBeUndefined();
    expect(page.items[0]).toMatchObject({ name: "a", brand_new_field: { x: 1 } });
    expect(page.items[1]?.nfs?.rules).toBeUndefined();
    expect(toItems("fb", "/file-systems", "", fileSystemSchema)).toEqual([]);
  });

  it("a contract mismatch is a user-facing ARRAY_CONTRACT error naming array, path and field", () => {
    const err = thrown(() =>
      toPage(
        "fb",
        "/file-systems",
        '{"items":[{"name":"a"},{"name":"b","space":{"virtual":"lots"}}]}',
        fileSystemSchema,
      ),
    );
    expect(err.code).toBe("ARRAY_CONTRACT");
    expect("userFacing" in err && err.userFacing).toBe(true);
    expect(err.message).toContain("array fb answered /file-systems");
    expect(err.message).toContain("items[1].space.virtual");
    expect(thrown(() => toPage("fb", "/x", "<html>", undefined)).message).toContain("not JSON");
    expect(thrown(() => toPage("fb", "/x", '{"items":{}}', undefined)).message).toContain("items");
    expect(
      thrown(() => toPage("fb", "/x", '{"pagination_info":{"total_item_count":"9"}}', undefined)).message,
    ).toContain("pagination_info.total_item_count");
  });
});
