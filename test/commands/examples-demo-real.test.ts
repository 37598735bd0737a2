/**
 * Every changing example in `/array help` (read from the registry) does its job for real on the console's demo
 * arrays, not only in a dry run: each runs on a fresh pair of demo arrays (a harness starts in tens of
 * milliseconds, so no example's effect can break another's), its gate is passed as a person would pass it
 * (Confirm, another admin's Approve, the typed name, secrets typed in the private prompt), and it must end in
 * success: an `ok` audit record, no refusal in the answer, and the simulators answering with a 2xx exactly the
 * requests the dry run showed (method, path, query and body), in order, and no other change.
 */
import { describe, expect, test } from "vitest";
import { RESOURCES } from "../../commands/index.js";
import { createRegistry } from "../../src/core/catalogue/registry.js";
import type { Effect } from "../../src/core/context/pipeline-types.js";
import { redactBody } from "../../src/simulator/request-log.js";
import { type Harness, messagesOf, textOf } from "../core/harness.js";
import { DONE_ON_DEMO, runThroughGates, startDemoHarness } from "./demo-examples.js";

/** Headlines that mean the change did not happen, whatever the audit says. */
const REFUSED =
  /Nothing was (done|changed)|There (is|are) no |does not exist|not found|no such|failed|refused|cannot|something went wrong/i;

const registry = createRegistry(RESOURCES);
const rows = registry
  .all()
  // A 2.x-only noun has nothing to do on the 1.x demo: test/commands/examples-coverage-2x.test.ts runs it on 2.x.
  .filter((e) => !e.resource.rest2Only && !e.command.rest2Only)
  .filter((e) => e.command.impact !== undefined)
  .flatMap((e) => e.command.examples.filter((ex) => !/\s--dry-run\b/.test(ex)));

/** Text of the effects, with any answer that completes later (a fan-out) awaited. */
async function finalText(effects: readonly Effect[]): Promise<string> {
  const later = await Promise.all(effects.flatMap((e) => (e.kind === "reply" && e.later ? [e.later] : [])));
  return [messagesOf(effects).at(-1)?.text ?? "", ...later.map((m) => m.text)].join("\n");
}

/** A changing request as planned or as received, compared whole: query as sorted pairs, body as parsed JSON. */
interface WireRequest {
  /** The array it goes to; undefined for the array the command names. */
  on?: string;
  method: string;
  /** `/api/1.12/file-systems`. */
  path: string;
  query: [string, string][];
  body: unknown;
}

const sortedPairs = (qs: string): [string, string][] =>
  [...new URLSearchParams(qs)].sort(([a, x], [b, y]) => a.localeCompare(b) || x.localeCompare(y));

/**
 * The body as the simulator's log keeps it: the interface's secret fields blanked (the typed secret, the fetched
 * connection key, and their placeholders on the card), so those compare by presence only.
 */
const asLogged = (body: string | undefined): unknown =>
  body === undefined ? undefined : JSON.parse(redactBody(body));

/**
 * A planned body with each placeholder the card named (a quoted "(new key)", filled from another request's answer
 * at run time) standing for any string: the value is known only when it is sent, everything else is as shown.
 */
const withHoles = (v: unknown): unknown => {
  if (typeof v === "string" && /^\(.+\)$/.test(v)) return expect.any(String);
  if (Array.isArray(v)) return v.map(withHoles);
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withHoles(x)]));
  return v;
};

/**
 * The requests the dry run shows, as data. Its code block holds one `formatPlannedRequest` line per request:
 * `METHOD /api/<version><path>[ (on <array>)][?<query>][ <JSON body>]`, an invertible format (a URL-encoded
 * query, JSON without line breaks); the pending store keeps only the same lines, so there is no richer source.
 */
function plannedRequests(effects: readonly Effect[]): WireRequest[] {
  const block = messagesOf(effects)
    .flatMap((m) => m.blocks)
    .find((b) => b.type === "code" && /^(POST|PATCH|DELETE|GET) \//.test(b.text));
  if (block?.type !== "code") return [];
  return block.text.split("\n").map((line) => {
    const m = /^(\w+) (\/api\/\d+\.\d+\/[^\s?]*)(?: \(on ([^)]+)\))?(?:\?(\S*))?(?: (.*))?$/.exec(line);
    if (!m) throw new Error(`not a planned request: ${line}`);
    const [, method = "", path = "", on, qs = "", body] = m;
    return { ...(on ? { on } : {}), method, path, query: sortedPairs(qs), body: withHoles(asLogged(body)) };
  });
}

/** The requests grouped by array, each array's in the order planned or received. */
const byArray = (rs: readonly WireRequest[]) =>
  [...rs].sort((a, b) => (a.on ?? "").localeCompare(b.on ?? ""));

/** Changing requests the demo arrays answered with a 2xx since the last reset, in the order each array got them. */
function answered(h: Harness): (WireRequest & { array: string })[] {
  return [...h.sims.entries()].flatMap(([array, sim]) =>
    sim.control
      .stats()
      .recent.filter(
        (r) =>
          r.method !== "GET" && /^\/api\/\d/.test(r.path) && typeof r.outcome === "number" && r.outcome < 300,
      )
      .map((r) => ({
        array,
        method: r.method,
        path: r.path,
        query: sortedPairs(r.query),
        body: asLogged(r.body),
      })),
  );
}

describe("every changing example in /array help works for real on the demo arrays", () => {
  test.each(rows)("%s", async (example) => {
    const h = await startDemoHarness();
    try {
      const plan = plannedRequests(await h.run("alice", `${example} --dry-run`));
      for (const sim of h.sims.values()) sim.control.resetStats();
      const effects = await runThroughGates(h, example);
      const headline = await finalText(effects);
      const cannot = DONE_ON_DEMO[example];
      if (cannot) {
        expect(textOf(effects)).toMatch(cannot);
        expect(answered(h)).toEqual([]);
        return;
      }
      expect(headline).not.toMatch(REFUSED);
      expect(h.audits.at(-1)).toMatchObject({ outcome: "ok" });
      expect(h.audits.at(-1)?.decision).not.toMatch(/^(requested|approval_recorded|denied|cancelled)$/);
      // What the dry run showed is, request for request and in order, what the arrays received: method, path,
      // query (order aside) and body; nothing more changed.
      expect(plan.length).toBeGreaterThan(0);
      const sent = answered(h);
      const target = h.audits.at(-1)?.arrays[0];
      const got = sent.map(({ array, ...r }) => ({ ...(array === target ? {} : { on: array }), ...r }));
      // In order on each array (the arrays' logs are separate, so order across them is not compared).
      expect(byArray(got)).toEqual(byArray(plan));
    } finally {
      await h.close();
    }
  });

  test("the exception list names live examples only", () => {
    expect(Object.keys(DONE_ON_DEMO).filter((ex) => !rows.includes(ex))).toEqual([]);
  });
});
