/**
 * The catalogue nouns of the operations only REST 2.x has: generated data (catalogue-2x.data.ts, from the 2.x
 * facts by tools/gen-catalogue-2x.mjs) joined with the words, roles and classes a person chose
 * (overrides-2x.ts). Each is an ordinary NounSpec marked `rest2`, so the generic verbs, the one access policy and
 * the one send path serve them like every 1.x noun; on a 1.x array each verb says which 2.x version has it.
 */
import type { Area } from "../../src/core/catalogue/define-command.js";
import { MODELS_2X } from "../../src/rest-spec/models-2x.js";
import { findOperation } from "../../src/rest-spec/operations.js";
import { endpointRule } from "../../src/rest-spec/policy.js";
import { GENERATED_2X } from "./catalogue-2x.data.js";
import { verbPlans } from "./generic/derive.js";
import {
  DEMO_SHOWS_2X,
  FAMILY_WORDS,
  FORMS_2X,
  OVERRIDES_2X,
  OVERRIDES_2X_LAST,
  VIEWS_2X,
} from "./overrides-2x.js";
import type { NounSpec, Selector, Unit, VerbName } from "./spec.js";

/** What the generator writes per noun. */
export interface Generated2x {
  noun: string;
  area: Area;
  summary: string;
  path: string;
  select?: readonly Selector[];
  verbs?: Readonly<Partial<Record<VerbName, string>>>;
  examples: Readonly<Partial<Record<VerbName, string>>>;
}

/** A changing verb of a security area is an array-settings change, gated like the 1.x settings nouns. */
const SECURITY_AREAS = new Set<Area>(["Identity and security"]);

/**
 * How a number of a 2.x item reads, from its name: the words the 2.x models use for a rate, a size, a duration
 * and a moment (`max_total_bytes_per_sec`, `min_retention`, `access_token_ttl_in_ms`, `created`), so a generated
 * noun's numbers are written as every other noun's ("2.86 MiB", "7y 1d", a date), not as raw integers.
 */
const UNIT_BY_NAME: readonly [RegExp, Unit][] = [
  [/bytes_per_sec$/, "size"],
  [/_per_sec$/, "rate"],
  [/(_in_ms|_ms|retention|timeout|duration|_ttl|period|interval|_delay|frequency|time_remaining)$/, "ms"],
  [
    /^(created|expires|destroyed_time|time_remaining_until|start_time|end_time|time|.*_at|.*_time)$/,
    "timestamp",
  ],
  [/(bytes|_size|^size|capacity|provisioned|quota_limit)$/, "size"],
];

/** The units of the integer fields of the item a noun's GET lists (its response's `items`) and of its bodies. */
export function unitsOf(path: string): Record<string, Unit> {
  const response = findOperation("GET", path)?.v2?.response;
  const items = response ? MODELS_2X[response]?.["items"]?.type : undefined;
  const item = items ? /^array<ref:(\w+)>$/.exec(items)?.[1] : undefined;
  const bodies = (["POST", "PATCH", "PUT"] as const).map((m) => findOperation(m, path)?.v2?.body);
  const out: Record<string, Unit> = {};
  for (const model of [item, ...bodies]) {
    for (const [field, f] of Object.entries((model && MODELS_2X[model]) || {})) {
      if (!/^(integer|number)/.test(f.type)) continue;
      const unit = UNIT_BY_NAME.find(([re]) => re.test(field))?.[1];
      if (unit) out[field] = unit;
    }
  }
  return out;
}

function nounOf(g: Generated2x): NounSpec {
  const o = { ...OVERRIDES_2X[g.path], ...OVERRIDES_2X_LAST[g.path] };
  const area = o.area ?? g.area;
  const gated = SECURITY_AREAS.has(area) ? ({ create: "array_settings" } as const) : {};
  // A read the access policy keeps for admins (a KMIP test, a connection key) is an admin's verb here too.
  const adminReads = endpointRule("GET", g.path)?.role === "admin";
  return {
    ...g,
    rest2: true,
    roles: { ...(adminReads ? ({ list: "admin", show: "admin" } as const) : {}), ...o.roles },
    columns: ["name"],
    units: unitsOf(g.path),
    ...VIEWS_2X[g.path],
    ...FORMS_2X[g.path],
    ...o,
    area,
    noun: o.noun ?? g.noun.replace(/^\S+/, (w) => FAMILY_WORDS[w] ?? w),
    examples: {
      ...g.examples,
      ...(g.path in DEMO_SHOWS_2X ? { show: DEMO_SHOWS_2X[g.path] } : {}),
      ...o.examples,
    },
    classes: { ...gated, ...o.classes },
  };
}

// A path whose every operation needs what chat cannot give (a file upload, a body of objects) stays with `api`.
export const CATALOGUE_2X: readonly NounSpec[] = GENERATED_2X.map(nounOf).filter(
  (s) => verbPlans(s).length > 0,
);
