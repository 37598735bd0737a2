/**
 * The README's diagnose excerpt is reproducible from `npm start`: the options and the line it names, run through
 * the console's own entry point (main) on the demo, print the excerpt's findings in its order (the figures follow
 * the hour of day, so digits are compared as digits).
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { runMain } from "./console-world.js";

const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

const npmStart = (argv: string[], line: string) => runMain(argv, [line]);

/** Digits and the figures they make stand for any figure: "2.55 ms" and "2.72 ms" read alike. */
const shape = (line: string) => line.replace(/[\d.,]+/g, "#");

describe("README diagnose excerpt", () => {
  test("`npm start -- --demo slow-nfs` then the excerpt's line prints its findings", async () => {
    const options = /`npm start -- (--demo [a-z-]+)`/.exec(README)?.[1];
    expect(options).toBe("--demo slow-nfs");
    const block = /```text\n(alice> \/array diagnose[^\n]*)\n([\s\S]*?)\n…\n```/.exec(README);
    if (!block?.[1] || block[2] === undefined) throw new Error("README has no diagnose excerpt");
    const { code, out } = await npmStart((options ?? "").split(" "), block[1].replace(/^alice> /, ""));
    expect(code).toBe(0);
    const printed = out.split("\n").map(shape);
    for (const line of block[2].split("\n")) expect(printed).toContain(shape(line));
    // Without the incident the same line finds no NFS slowdown: the option is what the excerpt needs.
    const plain = await npmStart([], block[1].replace(/^alice> /, ""));
    expect(plain.out).not.toContain("NFS latency");
  });

  test("an unknown incident is refused with the ones there are", async () => {
    const { code, err } = await npmStart(["--demo", "slow-fs"], "/array arrays");
    expect(code).toBe(2);
    expect(err).toContain("--demo takes one of slow-nfs, growth");
  });
});
