/**
 * One way to write a unit and a number, checked over what the commands print: every lookup example of every
 * command (read from the registry) on the demo arrays, and every Block Kit golden file. Rules: a duration uses
 * a unit and the one right below it ("20h 18s" skips minutes and is never written); latency is in ms (no µs
 * columns, no "usec"); counts of five digits or more carry thousands separators; a range is in one unit and is
 * never zero-width ("2.65 TiB to 2.65 TiB", "between 2027-01-05 and 2027-01-05").
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { formatBytesLike, formatDuration } from "../../src/core/words/units.js";
import { type Harness, textOf } from "../core/harness.js";
import { startDemoHarness } from "./demo-examples.js";

const RULES: readonly { name: string; bad: RegExp }[] = [
  { name: "durations in adjacent units", bad: /\b\d+d \d+[ms]\b|\b\d+h \d+s\b/ },
  { name: "latency in ms, not µs", bad: /\busec\b|\d\s*µs\b/i },
  // Not after a letter, digit, dot, colon, slash, quote or hyphen: serials, ports, versions, ids and JSON bodies.
  { name: "thousands separators", bad: /(?<![\w.:/"'#=-])\d{5,}(?![\w.:/"'%-])/ },
  {
    name: "a range in one unit",
    bad: /\b\d[\d.,]* ([KMGTPE]iB)\b[^()\n]{0,12} to −?\d[\d.,]* (?!\1)[KMGTPE]iB\b/,
  },
  { name: "no zero-width range", bad: /\b(\d[\d.,]* [KMGTPE]iB) to \1\b|between (\d{4}-\d\d-\d\d) and \2\b/ },
];

function broken(text: string): string[] {
  return RULES.flatMap((r) => {
    const m = r.bad.exec(text);
    return m ? [`${r.name}: "${text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 20)}"`] : [];
  });
}

describe("the rules themselves", () => {
  test("catch what the issue found, and pass what the formatters now write", () => {
    for (const bad of ["20h 18s ago", "Usec per read op", "2,514 µs", "45250 ops/s", "3.13 TiB to 1014 GiB"])
      expect(broken(bad), bad).not.toEqual([]);
    expect(broken("2.65 TiB/day (2.65 TiB to 2.65 TiB)")).not.toEqual([]);
    expect(formatDuration(20 * 3_600_000 + 18_000)).toBe("20h");
    expect(formatDuration(20 * 3_600_000 + 5 * 60_000)).toBe("20h 5m");
    expect(formatDuration(86_400_000 + 59_000)).toBe("1d");
    expect(formatBytesLike(1014 * 2 ** 30, 3.13 * 2 ** 40)).toBe("0.99 TiB");
    expect(
      broken(`growth 3.13 TiB/day (${formatBytesLike(1014 * 2 ** 30, 3.13 * 2 ** 40)} to 3.2 TiB)`),
    ).toEqual([]);
  });
});

const GOLDEN = join(import.meta.dirname, "..", "slack", "golden");

/**
 * Every text a person reads in a golden file: its strings, but for the raw numbers a data table sorts by and
 * the ids and values Slack hands back (never shown).
 */
const HIDDEN = /^(action_id|block_id|value|callback_id|private_metadata|url)$/;
function textsOf(value: unknown, key = ""): string[] {
  if (typeof value === "string") return HIDDEN.test(key) ? [] : [value];
  if (Array.isArray(value)) return value.flatMap((v) => textsOf(v, key));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) => textsOf(v, k));
}

describe("every golden render follows the rules", () => {
  test.each(readdirSync(GOLDEN).filter((f) => f.endsWith(".json")))("%s", (file) => {
    const texts = textsOf(JSON.parse(readFileSync(join(GOLDEN, file), "utf8")));
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.flatMap(broken)).toEqual([]);
  });
});

const registry = createRegistry(RESOURCES);
// `/array api` answers with the array's own JSON values, raw by design.
const LOOKUPS = registry
  .all()
  .filter((e) => e.command.impact === undefined && e.command.visibility !== "in_channel")
  .flatMap((e) => e.command.examples)
  .filter((line) => !line.startsWith("api "));

let h: Harness;
beforeAll(async () => {
  h = await startDemoHarness();
});
afterAll(async () => h.close());

describe("every lookup example's answer follows the rules", () => {
  test("on the demo arrays", async () => {
    expect(LOOKUPS.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const line of LOOKUPS) {
      for (const b of broken(textOf(await h.run("alice", line)))) found.push(`${line}: ${b}`);
    }
    expect(found).toEqual([]);
  }, 120_000);
});
