/**
 * Every catalogue command on a REST 2.x array, through the real client and the simulator over HTTPS: one array
 * speaks only 1.x, its twin (the same demo contents) only 2.x. Reads give the same cards; changes carry the same
 * gates and results and show each generation's exact requests; `--array all` over both is one table.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import { type Harness, startHarness, textOf } from "../core/harness.js";
import { runThroughGates } from "./demo-examples.js";

const registry = createRegistry(RESOURCES);
let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    arrays: [
      { name: "fb-one", versions: "1.0-1.12", scenario: "demo" },
      { name: "fb-two", versions: "2.0-2.28", scenario: "demo" },
    ],
    simulatorClock: true,
    config: { channels: { default_array: "fb-one" } },
  });
});
afterAll(async () => h.close());

/** A card's text with the array's name and its generation's request lines made neutral. */
const neutral = (text: string, array: string) =>
  text
    .replace(new RegExp(array, "gi"), "<array>")
    .replace(/\/api\/(1\.12|2\.28)\//g, "/api/<v>/")
    .replace(/(\?|&)names?=/g, "$1name=");

/** The first example of every read command that names no array of its own (the registry is the list). */
const reads = registry
  .all()
  // A 2.x-only noun has nothing to do on the 1.x demo: test/commands/examples-coverage-2x.test.ts runs it on 2.x.
  .filter((e) => !e.resource.rest2Only)
  .filter((e) => !e.command.impact && e.path !== "api get")
  .flatMap((e) => e.command.examples.slice(0, 1))
  .filter((x) => !/--array|--since|\bdiagnose\b|\bforecast\b|\btop\b|\bperf\b|\bhistory\b/.test(x));

describe("reads on a 2.x array", () => {
  test("there are reads to compare", () => {
    expect(reads.length).toBeGreaterThan(40);
  });

  test.each(reads)("`%s` gives the same card on both generations", async (line) => {
    const one = neutral(textOf(await h.run("carol", `${line} --array fb-one`)), "fb-one");
    const two = neutral(textOf(await h.run("carol", `${line} --array fb-two`)), "fb-two");
    expect(two).toEqual(one);
    expect(two).not.toMatch(/needs REST|not in REST|not a REST endpoint/);
  });

  test("--array all over a 1.x and a 2.x array is one merged table", async () => {
    const text = textOf(await h.run("carol", "fs list --array all"));
    expect(text).toMatch(/file systems on 2 arrays/);
    expect(text).toContain("fb-one");
    expect(text).toContain("fb-two");
    expect(text.match(/^home\b.*fb-(one|two)/gm) ?? text.match(/fb-(one|two).*\bhome\b/gm)).toHaveLength(2);
  });

  test("health shows the generation each array speaks", async () => {
    const text = textOf(await h.run("carol", "arrays list"));
    expect(text).toMatch(/fb-one.*1\.12/);
    expect(text).toMatch(/fb-two.*2\.28/);
  });
});

describe("changes on both generations", () => {
  test("create, resize, destroy and eradicate a file system: same gates and results, each generation's requests", async () => {
    const steps = [
      "fs create gen-test 1T --nfs",
      "fs resize gen-test 2T",
      "fs destroy gen-test",
      "fs eradicate gen-test",
    ];
    for (const step of steps) {
      const one = await runThroughGates(h, `${step} --array fb-one`);
      const two = await runThroughGates(h, `${step} --array fb-two`);
      expect(neutral(textOf(two), "fb-two")).toEqual(neutral(textOf(one), "fb-one"));
      expect(textOf(two)).not.toMatch(/failed|error|not in REST/i);
    }
    const gone = textOf(await h.run("carol", "fs show gen-test --array fb-two"));
    expect(gone).toMatch(/no file system|not found|No file system/i);
  });

  test("a planned change shows the exact requests of each generation", async () => {
    const one = textOf(await h.run("bob", "fs resize home 60T --dry-run --array fb-one"));
    const two = textOf(await h.run("bob", "fs resize home 60T --dry-run --array fb-two"));
    expect(one).toMatch(/PATCH \/api\/1\.12\/file-systems\?name=home /);
    expect(two).toMatch(/PATCH \/api\/2\.28\/file-systems\?names=home /);
    const smtp1 = textOf(
      await h.run("alice", `api PATCH /smtp '{"relay_host": "smtp3.example.com"}' --array fb-one`),
    );
    const smtp2 = textOf(
      await h.run("alice", `api PATCH /smtp '{"relay_host": "smtp3.example.com"}' --array fb-two`),
    );
    expect(smtp1).toContain("PATCH /api/1.12/smtp ");
    expect(smtp2).toContain("PATCH /api/2.28/smtp-servers ");
    const create1 = textOf(await h.run("bob", "fs create plan-x 1T --dry-run --array fb-one"));
    const create2 = textOf(await h.run("bob", "fs create plan-x 1T --dry-run --array fb-two"));
    expect(create1).toMatch(/POST \/api\/1\.12\/file-systems \{"name":"plan-x",/);
    expect(create2).toMatch(/POST \/api\/2\.28\/file-systems\?names=plan-x \{"provisioned":/);
    expect(create2).not.toContain('"name":"plan-x"');
    const snap = textOf(await h.run("bob", "snapshot create home --dry-run --array fb-two"));
    expect(snap).toMatch(/POST \/api\/2\.28\/file-system-snapshots\?source_names=home/);
  });
});
