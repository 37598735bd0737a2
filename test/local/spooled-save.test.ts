/** The console saves a spooled CSV (a listing streamed to a temporary file) where it says, and removes the spool. */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCsvSpool } from "../../src/core/presentation/spool.js";
import { attachmentSaver } from "../../src/local/attachments.js";

describe("console attachments", () => {
  it("a spooled CSV is saved whole and its temporary file removed", async () => {
    const spool = await createCsvSpool([{ key: "name", label: "Name" }], "x.csv");
    for (let i = 0; i < 1000; i++) await spool.write({ name: `fs-${i}` });
    const file = await spool.finish();
    const dir = mkdtempSync(join(tmpdir(), "save-"));
    const line = attachmentSaver(dir)({
      filename: "file-systems.csv",
      title: "All",
      contentType: "text/csv",
      content: file,
    });
    expect(line).toBe(`[All: saved to ${join(dir, "file-systems.csv")}]`);
    expect(readFileSync(join(dir, "file-systems.csv"), "utf8").trimEnd().split("\r\n")).toHaveLength(1001);
    expect(existsSync(file.path)).toBe(false);
  });
});
