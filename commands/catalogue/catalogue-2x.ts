/**
 * The catalogue nouns of the operations only REST 2.x has: generated data (catalogue-2x.data.ts, from the 2.x
 * facts by tools/gen-catalogue-2x.mjs) joined with the words, roles and classes a person chose
 * (overrides-2x.ts). Each is an ordinary NounSpec marked `rest2`, so the generic verbs, the one access policy and
 * the one send path serve them like every 1.x noun; on a 1.x array each verb says which 2.x version has it.
 */
import type { Area } from "../../src/core/catalogue/define-command.js";
import { endpointRule } from "../../src/rest-spec/policy.js";
import { GENERATED_2X } from "./catalogue-2x.data.js";
import { verbPlans } from "./generic/derive.js";
import { FAMILY_WORDS, OVERRIDES_2X } from "./overrides-2x.js";
import type { NounSpec, Selector, VerbName } from "./spec.js";

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

function nounOf(g: Generated2x): NounSpec {
  const o = OVERRIDES_2X[g.path] ?? {};
  const area = o.area ?? g.area;
  const gated = SECURITY_AREAS.has(area) ? ({ create: "array_settings" } as const) : {};
  // A read the access policy keeps for admins (a KMIP test, a connection key) is an admin's verb here too.
  const adminReads = endpointRule("GET", g.path)?.role === "admin";
  return {
    ...g,
    rest2: true,
    roles: { ...(adminReads ? ({ list: "admin", show: "admin" } as const) : {}), ...o.roles },
    columns: ["name"],
    ...o,
    area,
    noun: o.noun ?? g.noun.replace(/^\S+/, (w) => FAMILY_WORDS[w] ?? w),
    examples: { ...g.examples, ...o.examples },
    classes: { ...gated, ...o.classes },
  };
}

// A path whose every operation needs what chat cannot give (a file upload, a body of objects) stays with `api`.
export const CATALOGUE_2X: readonly NounSpec[] = GENERATED_2X.map(nounOf).filter(
  (s) => verbPlans(s).length > 0,
);
