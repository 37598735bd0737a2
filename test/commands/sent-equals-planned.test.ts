/**
 * Sent = planned, over every registered command that has an impact (read from the registry, not a chosen few):
 * each help example of such a command runs with `--dry-run` on fresh demo arrays, then for real through its gate
 * as people pass it (Confirm, a second person's Approve, the typed name, secrets in the private dialog). Every
 * change the simulators then received, on whichever array, is one of the lines the dry run showed, and every line
 * shown was sent: the pipeline sends exactly what the impact planned and nothing else. Secrets are compared as the
 * card shows them (redacted): the dialog's value fills the placeholder, and the card never holds the value.
 */
import { describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import type { Effect } from "../../src/core/pipeline-types.js";
import { createRegistry } from "../../src/core/registry.js";
import { DEMO_ARRAYS } from "../../src/local/demo.js";
import { redact } from "../../src/redact.js";
import type { Harness } from "../core/harness.js";
import { startHarness, textOf } from "../core/harness.js";
import { DONE_ON_DEMO, runThroughGates, startDemoHarness } from "./demo-examples.js";

const registry = createRegistry(RESOURCES);
/** Every example of every command with an impact (a change), with the command's id. */
const CHANGES = registry
  .all()
  .filter((e) => e.command.impact !== undefined)
  .flatMap((e) => e.command.examples.map((example) => ({ id: e.path, example })));

const startUndone = () =>
  startHarness({
    arrays: DEMO_ARRAYS.map((a) => ({ name: a.name, tags: [...a.tags], scenario: "empty" as const })),
    config: { channels: { default_array: DEMO_ARRAYS[0].name } },
  });

/** A JSON body as the card shows it: parsed, redacted, printed again. */
function shownBody(body: string): string {
  try {
    return JSON.stringify(redact(JSON.parse(body)));
  } catch {
    return body;
  }
}

/** `PATCH /api/1.12/x?q (on fb-dr-01) {...}` → the same line with its body as the card shows it. */
function normalise(line: string): string {
  const m = /^(\S+ \S+?)((?: \(on [^)]+\))?)(?: (.*))?$/.exec(line);
  if (!m) return line;
  return `${m[1]}${m[2] ?? ""}${m[3] ? ` ${shownBody(m[3])}` : ""}`;
}

const plannedLines = (effects: readonly Effect[]) =>
  textOf(effects)
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^(POST|PATCH|DELETE) \/api\//.test(l))
    .map(normalise);

/** The changes each simulator received (2xx), in the dry run's notation; other arrays named `(on …)`. */
function sentLines(h: Harness, home: string): string[] {
  const out: string[] = [];
  for (const [name, sim] of h.sims) {
    for (const r of sim.control.stats().recent) {
      if (r.method === "GET" || typeof r.outcome !== "number" || r.outcome >= 300) continue;
      if (!r.path.startsWith("/api/") || /^\/api\/(login|logout)/.test(r.path)) continue;
      const on = name === home ? "" : ` (on ${name})`;
      const query = r.query ? `?${r.query}` : "";
      out.push(normalise(`${r.method} ${r.path}${query}${on}${r.body ? ` ${r.body}` : ""}`));
    }
  }
  return out;
}

/**
 * A planned line as a pattern: a placeholder the card named (a quoted "(new key)", "(typed in a private dialog)")
 * stands for the value filled in at run time; everything else must be sent as shown.
 */
function patternOf(line: string): RegExp {
  const parts = line.split(/("\([^"]*\)")/);
  const src = parts
    .map((p, i) => (i % 2 === 1 ? '"[^"]*"' : p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${src}$`);
}

const homeOf = (example: string) => /--array (\S+)/.exec(example)?.[1] ?? DEMO_ARRAYS[0].name;

describe("sent = planned for every command with an impact", () => {
  test("each example of each change sends the lines its dry run showed, and nothing else", {
    timeout: 600_000,
  }, async () => {
    const mismatches: string[] = [];
    let compared = 0;
    for (const { id, example } of CHANGES) {
      const h = example in DONE_ON_DEMO ? await startUndone() : await startDemoHarness();
      try {
        // An example that is itself a dry run must send nothing at all.
        const dryRun = /(^|\s)--dry-run(\s|$)/.test(example);
        const planned = dryRun ? [] : plannedLines(await h.run("alice", `${example} --dry-run`));
        for (const sim of h.sims.values()) sim.control.resetStats();
        await runThroughGates(h, example);
        const sent = sentLines(h, homeOf(example));
        if (planned.length > 0 || sent.length > 0) compared++;
        const patterns = planned.map(patternOf);
        const missing = planned.filter((l, i) => !sent.some((s) => patterns[i]?.test(s)));
        const extra = sent.filter((s) => !patterns.some((p) => p.test(s)));
        if (missing.length > 0 || extra.length > 0) {
          mismatches.push(
            `${id} · ${example}\n  shown, not sent: ${missing.join(" | ") || "–"}\n  sent, not shown: ${extra.join(" | ") || "–"}`,
          );
        }
      } finally {
        await h.close();
      }
    }
    expect(mismatches).toEqual([]);
    // Most examples of changes change something on the demo: a sweep that compared nothing proves nothing.
    expect(compared).toBeGreaterThan(CHANGES.length / 2);
  });
});
