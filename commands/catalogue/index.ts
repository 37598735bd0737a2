/**
 * The resource catalogue: every resource of the REST 1.x interface that is not hand-written, as data, by area.
 * commands/index.ts registers these next to the hand-written resources; docs/commands.md is generated from
 * the registry (npm run docs:commands).
 */
import type { ResourceDefinition } from "../../src/core/catalogue/define-command.js";
import { fleetMemberResource } from "../fleet/join.js";
import {
  accessKeyResource,
  accountResource,
  bucketResource,
  lifecycleResource,
  objectUserResource,
  virtualHostResource,
} from "../object-store/index.js";
import {
  arrayConnectionResource,
  bucketLinkResource,
  connectionKeyResource,
  fsLinkResource,
  remoteCredentialsResource,
  targetResource,
} from "../replication/index.js";
import { CATALOGUE_2X } from "./catalogue-2x.js";
import { replacedVerbs, resourceOf } from "./generic/build.js";
import { type VerbPlan, verbPlans } from "./generic/derive.js";
import { only2x } from "./generic/endpoint.js";
import { IDENTITY } from "./identity.js";
import { INSIGHT } from "./insight.js";
import { NETWORK } from "./network.js";
import { OBJECT_STORE } from "./object-store.js";
import { OPERATIONS } from "./operations.js";
import { FIRST_CLASS_2X } from "./overrides-2x.js";
import { PROTECTION } from "./protection.js";
import { REPLICATION } from "./replication.js";
import type { NounSpec } from "./spec.js";
import { STORAGE } from "./storage.js";

export const CATALOGUE: readonly NounSpec[] = [
  ...STORAGE,
  ...PROTECTION,
  ...REPLICATION,
  ...OBJECT_STORE,
  ...NETWORK,
  ...IDENTITY,
  ...OPERATIONS,
  ...INSIGHT,
];

/**
 * Hand-written resources whose verbs replace (same verb) or join (new verb) a catalogue noun's generic ones,
 * keeping it one noun in help; the hand-written name and aliases stay aliases of that noun, so `account delete`
 * and `object-account delete` are the same command.
 */
const HAND_WRITTEN: Readonly<Record<string, ResourceDefinition>> = {
  "access-key": accessKeyResource,
  bucket: bucketResource,
  "object-user": objectUserResource,
  "virtual-host": virtualHostResource,
  "array-connection": arrayConnectionResource,
  target: targetResource,
  "remote-credentials": remoteCredentialsResource,
  "object-account": accountResource,
  "lifecycle-rule": lifecycleResource,
  "replica-link bucket": bucketLinkResource,
  "replica-link fs": fsLinkResource,
  "array-connection key": connectionKeyResource,
};

/** The same for the 2.x-only nouns: a fleet join spans two arrays (a key made on one, presented by the other). */
const HAND_WRITTEN_2X: Readonly<Record<string, ResourceDefinition>> = { "fleet member": fleetMemberResource };

/** The catalogue's resources, built anew on each call (a test checks what building them reads). */
export function catalogueResources(): ResourceDefinition[] {
  return [
    ...CATALOGUE.map((s) => resourceOf(s, HAND_WRITTEN[s.noun])),
    // The operations only REST 2.x has, as generated nouns (catalogue-2x.ts): after the 1.x ones in help.
    ...CATALOGUE_2X.map((s) => ({
      ...resourceOf(s, HAND_WRITTEN_2X[s.noun]),
      rest2Only: true,
      ...(FIRST_CLASS_2X.includes(s.path) ? { rest2Featured: true } : {}),
    })),
  ];
}

export const CATALOGUE_RESOURCES: readonly ResourceDefinition[] = catalogueResources();

/**
 * A 1.x noun's generic verbs: a verb a hand-written command replaces is not generic any more (the coverage and
 * per-verb tests reach its endpoint through the hand-written command's own tests or through `api`).
 */
function genericVerbs(s: NounSpec): VerbPlan[] {
  const replaced = replacedVerbs(s, HAND_WRITTEN[s.noun]);
  return verbPlans(s).filter((p) => !replaced.has(p.verb));
}

/**
 * The generic verbs of the 2.x-only nouns: apart from CATALOGUE_VERBS, whose per-verb tests run each example on a
 * plain simulated array of either generation; these run on the demo arrays pinned to 2.x
 * (test/commands/examples-coverage-2x.test.ts).
 */
export const CATALOGUE_VERBS_2X: readonly VerbPlan[] = [
  ...CATALOGUE_2X.flatMap((s) => verbPlans(s)),
  // The 2.x-only verbs of 1.x nouns (rest2Methods: admin create, dns delete) run there too.
  ...CATALOGUE.flatMap((s) => genericVerbs(s).filter((p) => only2x(p.endpoint))),
];

/** Every generic verb with its method, path, first version, role and class (docs and coverage read these). */
export const CATALOGUE_VERBS: readonly VerbPlan[] = CATALOGUE.flatMap((s) =>
  genericVerbs(s).filter((p) => !only2x(p.endpoint)),
);
