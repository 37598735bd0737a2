/**
 * Every example `/array help` shows, of every command (catalogue and hand-written, read from the registry), runs
 * on the console's demo arrays: a lookup answers without "there is no …", and a change, run with `--dry-run`,
 * reaches its dry run (the impact found what the example names) and sends nothing. A new example that names an
 * object the demo lacks fails here: add the object to the demo (src/simulator/scenarios/) or name one it has.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { PEM_NOTE } from "../../src/core/catalogue/help.js";
import { type CommandEntry, createRegistry } from "../../src/core/catalogue/registry.js";
import { type Harness, messagesOf, textOf } from "../core/harness.js";
import { DONE_ON_DEMO, startDemoHarness } from "./demo-examples.js";

/**
 * Answers that mean the example named something the demo does not have, or could not be run at all. Matched
 * against each message's headline, not its body: a listing may quote what an array said about a broken link
 * ("The specified bucket does not exist.").
 */
const BROKEN =
  /There (is|are) no |does not exist|not found|no such|is not something I know|is not a command|No array has|something went wrong|Which array\?/i;

/**
 * Examples in files another change owns (fs update settings; access keys), reported to be fixed there. Each must
 * still be an example and still fail: once fixed, it fails this test until it is taken off the list.
 */
const KNOWN_WRONG: ReadonlySet<string> = new Set([]);

/** What a dry run says when the example, typed as shown, would shrink or overfill what the demo has. */
const SURPRISES = /\bShrinks\b|more than 100% full|every write will fail|over the new size/;

const registry = createRegistry(RESOURCES);
const rows = registry
  .all()
  // A 2.x-only noun or verb has nothing to do on the 1.x demo: test/commands/examples-coverage-2x.test.ts runs it
  // on 2.x.
  .filter((e) => !e.resource.rest2Only && !e.command.rest2Only)
  .flatMap((e) => e.command.examples.map((ex) => [ex, e] as const));

let h: Harness;
beforeAll(async () => {
  h = await startDemoHarness();
});
afterAll(async () => h.close());

/** A change announced in the channel that has no impact, so no dry run (alert flag/unflag). */
const changesWithoutDryRun = (entry: CommandEntry) =>
  entry.command.impact === undefined && entry.command.visibility === "in_channel";

/** Changing requests any demo array received since the last reset (a dry run sends none). */
function changes(): string[] {
  return [...h.sims.entries()].flatMap(([name, sim]) =>
    Object.keys(sim.control.stats().requests)
      .filter((k) => /^(POST|PATCH|DELETE) \/api\/\d/.test(k))
      .map((k) => `${name}: ${k}`),
  );
}

async function answer(example: string, entry: CommandEntry): Promise<{ headline: string; text: string }> {
  const mutating = entry.command.impact !== undefined;
  const line = mutating && !/\s--dry-run\b/.test(example) ? `${example} --dry-run` : example;
  for (const sim of h.sims.values()) sim.control.resetStats();
  const effects = await h.run("alice", line);
  return {
    headline: messagesOf(effects)
      .map((m) => m.text)
      .join("\n"),
    text: textOf(effects),
  };
}

describe("every example in /array help runs on the demo arrays", () => {
  // Dry runs and lookups change nothing (asserted for each), so the examples share one pair of demo arrays.
  test.each(rows)("%s", async (example, entry) => {
    if (changesWithoutDryRun(entry)) {
      // Flagging an alert has no dry run: it runs for real, on demo arrays of its own.
      const own = await startDemoHarness();
      try {
        const headline = messagesOf(await own.run("alice", example))
          .map((m) => m.text)
          .join("\n");
        expect(headline).not.toMatch(BROKEN);
      } finally {
        await own.close();
      }
      return;
    }
    const { headline, text } = await answer(example, entry);
    expect(changes()).toEqual([]);
    if (KNOWN_WRONG.has(example)) {
      expect(text).not.toContain("Dry run:");
      return;
    }
    const done = DONE_ON_DEMO[example];
    if (done) {
      expect(text).toMatch(done);
      expect(text).toContain("Nothing was changed");
      return;
    }
    expect(headline).not.toMatch(BROKEN);
    if (entry.command.impact) expect(headline).toMatch(/^Dry run:/);
    // Run verbatim, an example must not surprise: no resize that shrinks, nothing pushed past its size.
    expect(text).not.toMatch(SURPRISES);
  });

  test("the exception lists name live examples only", () => {
    const all = new Set(rows.map(([ex]) => ex));
    expect([...KNOWN_WRONG, ...Object.keys(DONE_ON_DEMO)].filter((ex) => !all.has(ex))).toEqual([]);
  });

  test("a shrinking example is caught", async () => {
    const { text } = await answer("fs resize projects 3T", registry.find("fs", "resize"));
    expect(text).toMatch(SURPRISES);
  });

  test("help shortens a PEM in an example and says how to paste one", async () => {
    for (const topic of ["help certificate create", "help certificate update", "help api-client create"]) {
      const text = textOf(await h.run("alice", topic));
      expect(text).toContain("-----BEGIN ");
      expect(text).not.toMatch(/-----BEGIN [A-Z ]+----- ?MII/);
      expect(text).toContain(PEM_NOTE);
    }
  });

  test("an example naming an object the demo lacks is caught", async () => {
    const entry = registry.find("fs", "show");
    const { headline } = await answer("fs show no-such-fs", entry);
    expect(headline).toMatch(BROKEN);
  });
});
