/**
 * Every figure of the published report comes from a benchmark run: each row of docs/benchmarks.md's summary
 * (and so of the README table), each generated section and each raw output names a bench that `npm run bench`
 * runs (bench/benches.ts, the list bench/run.ts iterates) and that writes a result file. bench/results is not
 * committed (it is the output of a run), so what is checked here is the committed report against that list:
 * a row typed by hand, or left from a bench that no longer runs or writes nothing, fails.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BENCHES, type Bench } from "../../bench/benches.js";
import { blockOf } from "../../bench/report/write.js";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
const docs = read("docs/benchmarks.md");
const readme = read("README.md");
const pkg = JSON.parse(read("package.json")) as { scripts: Record<string, string> };

/** The bench a reader's command belongs to: its own command, or that command with arguments after `--`. */
const benchOfCommand = (command: string): Bench | undefined =>
  BENCHES.find((b) => command === b.command || command.startsWith(`${b.command} -- `));

describe("the benchmark report's sources", () => {
  it("every bench npm run bench runs has its npm script and writes its own result file", () => {
    expect(new Set(BENCHES.map((b) => b.name)).size).toBe(BENCHES.length);
    for (const b of BENCHES) {
      const script = b.command.replace(/^npm run /, "");
      expect(pkg.scripts[script], b.command).toMatch(
        new RegExp(`node( --[\\w-]+(=\\d+)?)* dist/bench/${b.name}\\.js$`),
      );
      const source = read(`bench/${b.name}.ts`);
      // The result's name is the file bench/run.ts looks for after the bench exits, and its command the row's.
      expect(source, b.name).toContain(`name: "${b.name}"`);
      expect(source, b.name).toMatch(/writeResult\(|writeFileSync\(out,/);
      expect(source, b.name).toContain(b.command);
    }
  });

  it("every row of the summary and the README table names a bench of the run", () => {
    const summary = blockOf(docs, "summary") ?? "";
    const rows = summary.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| what |"));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const command = /\| `([^`]+)` \|/.exec(row)?.[1] ?? "";
      expect(benchOfCommand(command), row).toBeDefined();
    }
    expect(blockOf(readme, "table")).toBe(summary);
  });

  it("every generated section and raw output names a bench of the run", () => {
    const generated = blockOf(docs, "generated") ?? "";
    const sections = [...generated.matchAll(/^Reproduce: `([^`]+)`$/gm)].map((m) => m[1] ?? "");
    expect(sections.length).toBeGreaterThan(0);
    for (const command of sections) expect(benchOfCommand(command), command).toBeDefined();
    const raw = [...generated.matchAll(/<summary><code>node dist\/bench\/([\w-]+)\.js/g)].map((m) => m[1]);
    for (const name of raw)
      expect(
        BENCHES.map((b) => b.name),
        `raw output of ${name}`,
      ).toContain(name);
  });
});
