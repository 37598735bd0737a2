/**
 * The docs' console transcripts are real runs: each marked block of README.md and docs/console.md is run again
 * from its input (docs/transcripts/<name>.txt) through the console, and must read as committed once times,
 * dates, figures and ids are masked (tools/transcripts.ts). Regenerate with `npm run docs:transcripts`.
 * The runs use the demo as `npm start` ships it (fb-lab-01 on REST 2.28, fb-dr-01 on 1.12, whatever
 * ARRAY_SIM_VERSIONS pins for the rest of the suite), so the request lines are compared as they are.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { blocksOf, masked, ROOT, runTranscript, TRANSCRIPT_DOCS } from "../../tools/transcripts.js";

const BLOCKS = TRANSCRIPT_DOCS.flatMap((doc) => blocksOf(doc, readFileSync(join(ROOT, doc), "utf8")));

describe("docs transcripts", () => {
  test("every input file has its block, and every block its input", () => {
    const inputs = readdirSync(join(ROOT, "docs", "transcripts")).map((f) => f.replace(/\.txt$/, ""));
    expect(BLOCKS.map((b) => b.name).sort()).toEqual(inputs.sort());
    expect(BLOCKS.length).toBeGreaterThanOrEqual(7);
  });

  test.each(BLOCKS.map((b) => [`${b.doc}: ${b.name}`, b] as const))(
    "%s is what a fresh run prints",
    async (_name, block) => {
      const fresh = await runTranscript(block.name);
      for (const m of fresh.matchAll(/It is in (\S+), readable only by you/g))
        expect(existsSync(m[1] ?? "")).toBe(false);
      expect(masked(fresh)).toBe(masked(block.text));
    },
    60_000,
  );

  test("the mask hides times, figures and ids, and nothing else", () => {
    expect(masked("Expires 2026-11-28 09:22 UTC (in 15m).")).toBe(
      masked("Expires 2027-01-01 00:00 UTC (in 14m)."),
    );
    expect(masked("lags 5h, 5.0×")).toBe(masked("lags 5h 7m, 5.1×"));
    expect(masked("Resized builds")).not.toBe(masked("Resized logs"));
    expect(masked("[1] Approve")).not.toBe(masked("[1] Deny"));
  });
});
