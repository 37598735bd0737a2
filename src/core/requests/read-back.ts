/**
 * What an array shows now against a change that was planned: for each planned request (as the card showed it,
 * `METHOD /api/<version>/path?names=… {body}`), read the object(s) it names through the GET of the same path in
 * the interface table and compare with the planned body. Each request gets a verdict (done, not done, partly
 * done, or cannot tell and why), so a card about an interrupted change says what happened rather than guessing.
 * Generic by construction: no command needs code of its own for it.
 */
import { isUserFacing, toUserMessage } from "../../errors.js";
import type { ArrayClient } from "../../flashblade/types.js";
import { ENDPOINTS } from "../../rest-spec/index.js";
import { isSecretKey } from "../../rest-spec/secrets.js";

export type Verdict = "done" | "not done" | "partly done" | "cannot tell";

export interface PlannedLine {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

export interface ReadBack {
  verdict: Verdict;
  /** One line for the card: the request, the verdict and what differs. */
  line: string;
}

const LINE = /^(GET|POST|PATCH|DELETE) \/api\/[^/\s]+(\/[^?\s]*)(?:\?(\S*))?(?: (.*))?$/s;

/** Parses one planned-request line as gate-messages formats it; undefined when it is not one. */
export function parsePlannedLine(text: string): PlannedLine | undefined {
  const m = LINE.exec(text);
  if (!m) return undefined;
  const query: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(m[3] ?? "")) query[k] = v;
  let body: unknown;
  if (m[4] !== undefined) {
    try {
      body = JSON.parse(m[4]);
    } catch {
      return undefined;
    }
  }
  return { method: m[1] as string, path: m[2] as string, query, body };
}

/** Leaf paths of a planned body with their values ("nfs.enabled" → false). Arrays are compared whole. */
function leaves(v: unknown, at = ""): [string, unknown][] {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return at ? [[at, v]] : [];
  return Object.entries(v as Record<string, unknown>).flatMap(([k, x]) => leaves(x, at ? `${at}.${k}` : k));
}

function valueAt(obj: unknown, path: string): { found: boolean; value?: unknown } {
  let cur: unknown = obj;
  for (const part of path.split(".")) {
    if (cur === null || typeof cur !== "object" || !Object.hasOwn(cur, part)) return { found: false };
    cur = (cur as Record<string, unknown>)[part];
  }
  return { found: true, value: cur };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const show = (v: unknown) => {
  const s = JSON.stringify(v) ?? "null";
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
};

/** Compares one object with a planned body: which planned fields it shows, and which differ. */
function compare(item: unknown, body: unknown): { matched: number; differ: string[] } {
  let matched = 0;
  const differ: string[] = [];
  for (const [path, planned] of leaves(body)) {
    // A secret is never compared, so never shown: the array does not read it back, and a card must not hold it.
    if (path.split(".").some(isSecretKey)) continue;
    const now = valueAt(item, path);
    if (!now.found) continue; // not readable back (a secret, a write-only field)
    if (same(now.value, planned)) matched++;
    else differ.push(`${path} is ${show(now.value)}, planned ${show(planned)}`);
  }
  return { matched, differ };
}

/** Reads the named objects back; `undefined` for one that does not exist. */
async function readObjects(
  array: ArrayClient,
  path: string,
  key: "names" | "ids",
  values: readonly string[],
): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  for (const v of values) {
    try {
      const page = await array.get<Record<string, unknown>>(path, { query: { [key]: [v] } });
      out.set(v, page.items[0]);
    } catch (err) {
      // Arrays answer a read of a name that is not there with 400 "… does not exist".
      if (isUserFacing(err) && /does not exist|not found/i.test(err.message)) out.set(v, undefined);
      else throw err;
    }
  }
  return out;
}

/** The verdict for one planned request, read from the array now. */
export async function readBackOne(array: ArrayClient, text: string): Promise<ReadBack> {
  const p = parsePlannedLine(text);
  const label = p ? `${p.method} ${p.path}` : text;
  if (!p) return { verdict: "cannot tell", line: `${label}: cannot tell (not a request line)` };
  const get = ENDPOINTS.find((e) => e.method === "GET" && e.path === p.path);
  // Older writes name their object with `name=` (singular); reads always take `names`.
  const given = (["names", "name", "ids"] as const).find((k) => p.query[k] !== undefined);
  const key = given === "ids" ? "ids" : "names";
  // A create that names its object in the body ({"name": …}) is read back by that name.
  const bodyName = (p.body as { name?: unknown } | undefined)?.name;
  const named = given ? p.query[given] : typeof bodyName === "string" ? bodyName : undefined;
  if (!get || named === undefined || !Object.hasOwn(get.params, key))
    return { verdict: "cannot tell", line: `${label}: cannot tell (no read of what it names)` };
  const values = named.split(",").filter(Boolean);
  const objects = await readObjects(array, p.path, key, values);
  const per: { name: string; verdict: Verdict; why: string }[] = [];
  for (const [name, item] of objects) {
    if (p.method === "DELETE") {
      per.push(
        item === undefined
          ? { name, verdict: "done", why: "it is gone" }
          : { name, verdict: "not done", why: "it is still there" },
      );
      continue;
    }
    if (item === undefined) {
      per.push({
        name,
        verdict: p.method === "POST" ? "not done" : "cannot tell",
        why: p.method === "POST" ? "it does not exist" : "it does not exist any more",
      });
      continue;
    }
    const { matched, differ } = compare(item, p.body);
    if (p.method === "POST" && differ.length === 0)
      per.push({ name, verdict: "done", why: "it exists as planned" });
    else if (differ.length === 0 && matched > 0)
      per.push({ name, verdict: "done", why: "it shows the planned values" });
    else if (differ.length === 0)
      per.push({ name, verdict: "cannot tell", why: "the planned fields cannot be read back" });
    else per.push({ name, verdict: matched > 0 ? "partly done" : "not done", why: differ.join("; ") });
  }
  const verdicts = new Set(per.map((x) => x.verdict));
  const verdict: Verdict =
    verdicts.size === 1
      ? (per[0]?.verdict ?? "cannot tell")
      : verdicts.has("done")
        ? "partly done"
        : "cannot tell";
  const parts = per.map((x) => `${x.name}: ${x.verdict}, ${x.why}`);
  return { verdict, line: `${label} ${parts.join(" · ")}` };
}

/** Every planned request read back; a failed read says why instead of a verdict. */
export async function readBack(
  array: ArrayClient,
  requests: readonly string[],
  requestId: string,
): Promise<ReadBack[]> {
  const out: ReadBack[] = [];
  for (const r of requests) {
    try {
      out.push(await readBackOne(array, r));
    } catch (err) {
      out.push({
        verdict: "cannot tell",
        line: `${r.split(" ", 2).join(" ")}: cannot read it back now: ${toUserMessage(err, requestId)}`,
      });
    }
  }
  return out;
}

/** The one-word summary across requests, for the card's headline. */
export function overall(results: readonly ReadBack[]): Verdict {
  const v = new Set(results.map((r) => r.verdict));
  if (v.size === 1) return results[0]?.verdict ?? "cannot tell";
  if (v.has("done") || v.has("partly done")) return "partly done";
  return "cannot tell";
}
