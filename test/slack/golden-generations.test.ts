/**
 * Issue 41: the golden renders keep a 2.x set that differs from the 1.x set only in the request lines — the same
 * words, roles, gates and cards on either generation. Both sets are files in the repository, so this reads them
 * whichever generation the run speaks. One other difference is content, not wire: the demo's 2.x arrays export
 * file systems through NFS export policies (issue 42's families, which only 2.x has), so fs show's Export rules
 * field names the policy and its rules there; that line is allowed, and only in that form.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { onWire } from "../helpers/wire.js";
import { GOLDEN_1X, GOLDEN_2X } from "./helpers/golden-dir.js";

const names = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();

test("the 2.x golden set has every 1.x golden and no other", () => {
  expect(names(GOLDEN_1X).length).toBeGreaterThan(0);
  expect(names(GOLDEN_2X)).toEqual(names(GOLDEN_1X));
});

test.each(names(GOLDEN_1X))("%s on 2.x differs from 1.x only in request lines", (name) => {
  const one = readFileSync(join(GOLDEN_1X, name), "utf8").split("\n");
  const two = readFileSync(join(GOLDEN_2X, name), "utf8").split("\n");
  expect(two.length).toBe(one.length);
  const differing = one.flatMap((line, i) => (line === two[i] ? [] : [[line, two[i] ?? ""] as const]));
  for (const [a, b] of differing) {
    if (/^\s*"text": "\*Export rules\*\\npolicy [\w-]+: /.test(b)) continue;
    expect(a).toMatch(/\/api\/1\.\d+\//);
    const [, version = ""] = /\/api\/(2\.\d+)\//.exec(b) ?? [];
    expect(version, b).not.toBe("");
    // Not just any request line: the 1.x one as the dialect of the 2.x version phrases it.
    expect(lineValue(b)).toBe(
      lineValue(a)
        .split("\n")
        .map((l) => (/^[A-Z]+ \/api\/1\./.test(l) ? onWire(l, version) : l))
        .join("\n"),
    );
  }
});

/** The string value of a golden's `"key": "value",` line. */
function lineValue(line: string): string {
  const parsed: unknown = JSON.parse(`{${line.trim().replace(/,$/, "")}}`);
  const [value] = Object.values(parsed as Record<string, unknown>);
  return String(value);
}
