/**
 * `npm start`'s demo is a mixed fleet, as most are: one array on REST 1.x only, the others serving both
 * generations (the bot speaks 2.x to them). The suite's runs pin every demo array to one generation with
 * ARRAY_SIM_VERSIONS; the demo as shipped (what `npm start` and the docs' transcripts run) ignores that.
 */
import { describe, expect, test } from "vitest";
import { DEMO_ARRAYS } from "../../src/local/demo.js";
import { versionsOverride } from "../../src/simulator/options.js";
import { runMain } from "./console-world.js";

/** The REST column of `/array arrays list`, per array. */
function restColumn(out: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const a of DEMO_ARRAYS) {
    const row = out.split("\n").find((l) => l.startsWith(`${a.name} `));
    const rest = /\s(\d+\.\d+)\s/.exec(row ?? "")?.[1];
    if (rest) rows.set(a.name, rest);
  }
  return rows;
}

/** The newest version a demo array's range lists in `generation`. */
function newest(versions: string, generation: "1" | "2"): string | undefined {
  const ends = versions
    .split(",")
    .flatMap((r) => r.split("-"))
    .filter((v) => v.startsWith(`${generation}.`));
  return ends.sort((a, b) => Number(a.split(".")[1]) - Number(b.split(".")[1])).at(-1);
}

describe("the demo's generations", () => {
  test("one array speaks only REST 1.x and the others both", () => {
    const only1 = DEMO_ARRAYS.filter((a) => newest(a.versions, "2") === undefined);
    expect(only1).toHaveLength(1);
    for (const a of DEMO_ARRAYS.filter((x) => !only1.includes(x)))
      expect(newest(a.versions, "1")).toBeDefined();
  });

  test("`npm start` shows each array's version in `/array arrays list`: 2.x where served, else 1.x", async () => {
    const { code, out } = await runMain([], ["/array arrays list"], {}, { demoAsShipped: true });
    expect(code).toBe(0);
    const rest = restColumn(out);
    expect([...rest.keys()]).toEqual(DEMO_ARRAYS.map((a) => a.name));
    for (const a of DEMO_ARRAYS)
      expect(rest.get(a.name), a.name).toBe(newest(a.versions, "2") ?? newest(a.versions, "1"));
    expect(new Set(rest.values()).size).toBe(2);
  });

  test("a change planned on each array shows that array's generation in its request line", async () => {
    const lines = DEMO_ARRAYS.map((a) => `/array fs resize builds 9T --array ${a.name}`);
    const { out } = await runMain([], lines, {}, { demoAsShipped: true });
    for (const a of DEMO_ARRAYS) {
      const v = newest(a.versions, "2") ?? newest(a.versions, "1");
      const block =
        out.split(`alice> /array fs resize builds 9T --array ${a.name}`)[1]?.split("alice>")[0] ?? "";
      expect(block, a.name).toMatch(new RegExp(`PATCH /api/${v?.replace(".", "\\.")}/file-systems\\?`));
    }
  });

  test("the suite's override still pins every demo array to its one generation", async () => {
    const pinned = versionsOverride();
    if (pinned === undefined)
      throw new Error("the suite runs with ARRAY_SIM_VERSIONS set (vitest.config.ts)");
    const { out } = await runMain([], ["/array arrays list"], {});
    const expected = newest(pinned, "2") ?? newest(pinned, "1");
    for (const a of DEMO_ARRAYS) expect(restColumn(out).get(a.name), a.name).toBe(expected);
  });
});
