import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { attachmentSaver } from "../../src/local/attachments.js";

const scratch = mkdtempSync(join(tmpdir(), "fc-attach-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const csv = {
  filename: "../../etc/fs.csv",
  title: "File systems",
  contentType: "text/csv" as const,
  content: "a,b\n",
};

describe("console attachments", () => {
  test("a TMPDIR that does not exist yet is created and used", () => {
    const missing = join(scratch, "not", "there");
    const line = attachmentSaver(undefined, () => missing)(csv);
    const path = /saved to (\S+)\]/.exec(line)?.[1] ?? "";
    expect(path.startsWith(missing)).toBe(true);
    expect(path.endsWith("/fs.csv")).toBe(true);
    expect(readFileSync(path, "utf8")).toBe("a,b\n");
  });

  test("an unusable TMPDIR is reported in the answer, not by ending the session", () => {
    const file = join(scratch, "a-file");
    writeFileSync(file, "x");
    const line = attachmentSaver(undefined, () => join(file, "sub"))(csv);
    expect(line).toMatch(
      /^\[File systems: not saved, .* is not writable \(\w+\); set TMPDIR to a writable directory\]$/,
    );
  });
});

describe("console attachments at exit", () => {
  test("close() removes transient files and the directory it made once empty, and keeps the rest", () => {
    const save = attachmentSaver(undefined, () => scratch);
    const chart = /saved to (\S+); removed when the console exits\]/.exec(
      save({ ...csv, filename: "c.png", title: "Chart" }, { transient: true }),
    )?.[1];
    const kept = /saved to (\S+)\]/.exec(save(csv))?.[1];
    save.close();
    expect(existsSync(chart ?? "")).toBe(false);
    expect(readFileSync(kept ?? "", "utf8")).toBe("a,b\n");
    const alone = attachmentSaver(undefined, () => scratch);
    const only = /saved to (\S+);/.exec(alone(csv, { transient: true }))?.[1] ?? "";
    expect(existsSync(only)).toBe(true);
    alone.close();
    expect(existsSync(dirname(only))).toBe(false);
  });
});
