/**
 * What the console leaves behind: charts are removed at exit (a CSV the person asked for stays), and a secret
 * shown once never reaches output that is not a terminal unless --show-secret asks for it.
 */
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, test } from "vitest";
import { runMain } from "./console-world.js";

describe("the console after it exits", () => {
  test("a chart's file is removed at exit, and the answer said it would be; a listing's CSV stays", async () => {
    const { code, out } = await runMain([], ["/array perf --last 24h", "/array hardware list --array all"]);
    expect(code).toBe(0);
    const chart = /saved to (\S+\.png); removed when the console exits\]/.exec(out)?.[1];
    expect(chart).toBeDefined();
    expect(existsSync(chart ?? "")).toBe(false);
    const csv = /saved to (\S+\.csv)\]/.exec(out)?.[1];
    expect(csv).toBeDefined();
    expect(readFileSync(csv ?? "", "utf8")).toContain("CH1.FB5");
    rmSync(dirname(csv ?? ""), { recursive: true, force: true });
  });

  test("the directory goes too when only charts were in it", async () => {
    const { out } = await runMain([], ["/array perf --last 24h"]);
    const chart = /saved to (\S+\.png); removed when the console exits\]/.exec(out)?.[1] ?? "";
    expect(chart).not.toBe("");
    expect(existsSync(dirname(chart))).toBe(false);
  });

  test("a new access key's secret goes to a file only its owner reads, not to piped output", async () => {
    const { code, out } = await runMain([], ["/array access-key create backup/veeam"]);
    expect(code).toBe(0);
    const path = /It is in (\S+), readable only by you/.exec(out)?.[1] ?? "";
    expect(path).not.toBe("");
    const secret = readFileSync(path, "utf8").trim();
    rmSync(dirname(path), { recursive: true, force: true });
    expect(secret).toMatch(/^\S{40}$/);
    expect(out).not.toContain(secret);
    expect(out).toContain("Start with --show-secret to print it instead.");
  });

  test("--show-secret prints the secret, and no file is written", async () => {
    const { code, out } = await runMain(["--show-secret"], ["/array access-key create backup/veeam"]);
    expect(code).toBe(0);
    expect(out).not.toContain("The secret is not printed");
    expect(out).toMatch(/^ {4}\S{40}$/m);
  });
});

describe("the secret's file", () => {
  test("is private to its owner", async () => {
    const { out } = await runMain([], ["/array access-key create backup/veeam"]);
    const path = /It is in (\S+), readable only by you/.exec(out)?.[1] ?? "";
    const mode = statSync(path).mode & 0o777;
    const dirMode = statSync(dirname(path)).mode & 0o777;
    rmSync(dirname(path), { recursive: true, force: true });
    expect(mode).toBe(0o600);
    expect(dirMode).toBe(0o700);
  });
});
