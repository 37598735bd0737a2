/**
 * Every versioned endpoint-method of the 1.12 interface is reachable from `/array`: for each row of the
 * endpoint table, some command line (a catalogue verb's example, else `api`) sends exactly that method and path
 * to the simulator (read from its request log), and the same line against an array limited to the version
 * before the endpoint's first answers with a version message and sends nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CATALOGUE_VERBS } from "../../commands/catalogue/index.js";
import type { Effect } from "../../src/core/context/pipeline-types.js";
import { ENDPOINTS, type EndpointSpec } from "../../src/rest-spec/endpoints.js";
import { compareVersions, KNOWN_VERSIONS } from "../../src/rest-spec/versions.js";
import { type Harness, messagesOf, startHarness, textOf } from "../core/harness.js";
import { key1x } from "../helpers/wire.js";

const VERSIONED = ENDPOINTS.filter((e) => e.versioned);
const key = (e: { method: string; path: string }) => `${e.method} ${e.path}`;

/** The version just before `since` (the newest an array can run and still lack the endpoint). */
function before(since: string): string | undefined {
  const i = KNOWN_VERSIONS.indexOf(since as (typeof KNOWN_VERSIONS)[number]);
  return i > 0 ? KNOWN_VERSIONS[i - 1] : undefined;
}
const OLD = [...new Set(VERSIONED.map((e) => before(e.since)).filter((v) => v !== undefined))].sort(
  compareVersions,
);
const oldArray = (v: string) => `old-${v.replaceAll(".", "-")}`;

// Catalogue verbs in the order their examples build on each other: create before show, delete last.
const ORDER = ["create", "add", "list", "show", "update", "set", "action", "remove", "delete"];
const friendly = new Map<string, string>();
for (const p of [...CATALOGUE_VERBS].sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind) || 0)) {
  const k = key(p);
  if (!friendly.has(k)) friendly.set(k, `${p.spec.noun} ${p.verb}${p.example ? ` ${p.example}` : ""}`);
}
const apiLine = (e: EndpointSpec) =>
  `api ${e.method} ${e.path}${e.method === "PATCH" || e.method === "POST" ? " '{}'" : ""}`;

/** Endpoints in the order of the catalogue's verbs, then the rest; each with its candidate lines. */
const rows = [
  ...VERSIONED.filter((e) => friendly.has(key(e))).sort(
    (a, b) => [...friendly.keys()].indexOf(key(a)) - [...friendly.keys()].indexOf(key(b)),
  ),
  ...VERSIONED.filter((e) => !friendly.has(key(e))),
];

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    arrays: [{ name: "lab-1" }, ...OLD.map((v) => ({ name: oldArray(v), versions: `1.0-${v}` }))],
  });
}, 60_000);
afterAll(async () => h.close());

function versionedRequests(array: string): Record<string, number> {
  const stats = h.sims.get(array)?.control.stats().requests ?? {};
  const out: Record<string, number> = {};
  for (const [k, n] of Object.entries(stats)) {
    const [method = "", path = ""] = k.split(" ");
    const at = key1x(method, path);
    if (at) out[at] = (out[at] ?? 0) + n;
  }
  return out;
}

/** Runs a line as an admin and carries it through its gate (confirm, or a second admin's approval). */
async function runThrough(line: string, array: string): Promise<Effect[]> {
  const effects = await h.run("alice", `${line} --array ${array}`);
  const buttons = messagesOf(effects).flatMap((m) =>
    m.blocks.flatMap((b) => (b.type === "actions" ? b.buttons.map((x) => x.label) : [])),
  );
  if (buttons.includes("Confirm")) return h.click("alice", effects, "Confirm");
  if (buttons.includes("Approve")) return h.click("dave", effects, "Approve");
  return effects;
}

describe("every versioned 1.12 endpoint-method is reachable from /array", () => {
  const reached = new Map<string, string>();

  test("some line sends exactly that method and path", async () => {
    const missing: string[] = [];
    const viaApi: string[] = [];
    for (const e of rows) {
      const candidates = [friendly.get(key(e)), apiLine(e)].filter((l): l is string => l !== undefined);
      for (const line of candidates) {
        h.sims.get("lab-1")?.control.resetStats();
        await runThrough(line, "lab-1");
        if ((versionedRequests("lab-1")[key(e)] ?? 0) > 0) {
          reached.set(key(e), line);
          if (line.startsWith("api ") && friendly.has(key(e))) viaApi.push(key(e));
          break;
        }
      }
      if (!reached.has(key(e))) missing.push(key(e));
    }
    const friendlyCount = [...reached.values()].filter((l) => !l.startsWith("api ")).length;
    console.log(
      `endpoint coverage: ${reached.size}/${VERSIONED.length} versioned endpoint-methods ` +
        `(${((100 * reached.size) / VERSIONED.length).toFixed(1)} %): ${friendlyCount} by a catalogue verb, ` +
        `${reached.size - friendlyCount} by api` +
        (viaApi.length ? `; catalogue verbs the simulator refused before sending: ${viaApi.join(", ")}` : ""),
    );
    expect(missing).toEqual([]);
    expect(reached.size).toBe(VERSIONED.length);
  }, 300_000);

  test("the same line against an older array says which version it needs and sends nothing", async () => {
    expect(reached.size).toBe(VERSIONED.length);
    const wrong: string[] = [];
    let checked = 0;
    for (const e of rows) {
      const old = before(e.since);
      if (old === undefined) continue;
      const array = oldArray(old);
      const line = reached.get(key(e)) as string;
      h.sims.get(array)?.control.resetStats();
      const text = textOf(await runThrough(line, array));
      const sent = Object.keys(versionedRequests(array));
      checked++;
      if (
        !text.includes(`needs REST ${e.since}`) ||
        !text.includes(`${array} runs ${old}`) ||
        sent.length > 0
      )
        wrong.push(`${key(e)} via "${line}": sent ${JSON.stringify(sent)}; answered ${text.slice(0, 160)}`);
    }
    console.log(
      `version gate: ${checked - wrong.length}/${checked} lines refused on an older array, nothing sent`,
    );
    expect(wrong).toEqual([]);
  }, 300_000);
});
