/**
 * The suite runs twice (vitest.config.ts): simulated arrays on REST 1.x, and again on 2.x (`npm run test:rest2`).
 * Tests were written against the 1.x wire and keep saying what they mean in it — `PATCH /api/1.12/file-systems?
 * name=home` — while this module says how the same request looks on the version the bot negotiates with a
 * default simulated array. On 1.x a line comes back exactly as written, so the 1.x run asserts the literal text
 * it always did; on 2.x the dialect (src/rest-spec/dialect.ts) renames the path and parameters and moves a
 * create's name, and nothing per endpoint is written here.
 */
import { chooseVersion } from "../../src/flashblade/negotiate.js";
import { dialect } from "../../src/rest-spec/dialect.js";
import type { HttpMethod } from "../../src/rest-spec/endpoints.js";
import { findOperation } from "../../src/rest-spec/operations.js";
import { parseVersionRange } from "../../src/rest-spec/versions.js";
import { defaultVersions } from "../../src/simulator/options.js";
import type { SimStats } from "../../src/simulator/request-log.js";

/** The version the bot speaks with a simulated array started without its own `versions` (api: auto). */
export const SIM_VERSION: string = chooseVersion("sim", parseVersionRange(defaultVersions()));
/** Whether this run's simulated arrays speak REST 2.x. */
export const REST2 = SIM_VERSION.startsWith("2.");

const LINE = /^([A-Z]+) \/api\/(1\.\d+)(\/[^?\s]*)(?:\?(\S*))?( \(on [^)]+\))?(?: (.*))?$/s;

/**
 * A request line as an impact card, a dry run or the request log shows it, written for REST 1.x
 * (`METHOD /api/1.N/path[?query][ (on array)][ body]`), as it reads on SIM_VERSION (or on `version`).
 */
export function onWire(line1x: string, version: string = SIM_VERSION): string {
  const m = LINE.exec(line1x);
  if (!m) throw new Error(`not a 1.x request line: ${line1x}`);
  const [, method = "", , path = "", qs, on = "", bodyText] = m;
  if (version.startsWith("1.")) return line1x.replace(/^([A-Z]+) \/api\/1\.\d+/, `$1 /api/${version}`);
  const op = findOperation(method as HttpMethod, path);
  if (!op) throw new Error(`no operation for ${method} ${path}`);
  const d = dialect(version);
  const query: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(qs ?? "")) query[k] = v;
  const wire = d.request(op, query, bodyText === undefined ? undefined : JSON.parse(bodyText));
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(wire.query)) q.set(k, String(v));
  const body = wire.body === undefined ? "" : ` ${JSON.stringify(wire.body)}`;
  return `${method} /api/${version}${d.path(op)}${q.size > 0 ? `?${q}` : ""}${on}${body}`;
}

/** `/api/1.N/path[?query]` as the path and query SIM_VERSION serves the same operation under. */
export function wirePath(method: HttpMethod, path1x: string): string {
  return onWire(`${method} ${path1x}`).slice(method.length + 1);
}

/** How many requests a simulator counted for a 1.x `METHOD /api/1.N/path` key, on SIM_VERSION's wire. */
export function requestCount(stats: Pick<SimStats, "requests">, key1x: string): number {
  return stats.requests[onWire(key1x)] ?? 0;
}

/** The query string (without "?") a 1.x request line carries on SIM_VERSION's wire. */
export function queryOf(line1x: string): string {
  const [, query = ""] = /^\S+ [^?\s]*\?(\S*)/.exec(onWire(line1x)) ?? [];
  return query;
}

/**
 * `METHOD /api/<version>/path` as the simulator logged it → `METHOD /path` under the 1.x table's path for the same
 * operation (`PATCH /api/2.28/smtp-servers` → `PATCH /smtp`), so coverage keyed by the 1.x table counts a request
 * whichever generation carried it. Undefined for what is not a versioned request; an operation 1.x lacks keeps
 * its own path.
 */
export function key1x(method: string, fullPath: string): string | undefined {
  const m = /^\/api\/(\d+\.\d+(?:\.\d+)?)(\/.*)$/.exec(fullPath);
  if (!m) return undefined;
  const [, version = "", path = ""] = m;
  const op = dialect(version).find(method as HttpMethod, path);
  return `${method} ${op?.v1?.path ?? path}`;
}
