/**
 * From a catalogue entry and the endpoint table to the verbs a resource has: which method and path each verb
 * sends, since which REST version, who may run it, how it is gated, which words select an object and which
 * options fill the body. Everything here is data; reads.ts and changes.ts turn it into commands.
 */

import type { Role } from "../../../src/core/access/roles.js";
import type { Area, DestructiveClass } from "../../../src/core/catalogue/define-command.js";
import type { EndpointSpec, HttpMethod } from "../../../src/rest-spec/endpoints.js";
import type { NounSpec, Selector } from "../spec.js";
import { selectorKey } from "./common.js";
import { documentField, secretFileField } from "./document.js";
import { type CatalogueEndpoint, endpointOf as findEndpoint, only2x } from "./endpoint.js";
import { type FieldDef, writableFields } from "./fields.js";
import { type QueryOptionDef, queryOptionsOf } from "./query-options.js";

export type VerbKind = "list" | "show" | "create" | "update" | "delete" | "set" | "add" | "remove" | "action";

export interface VerbPlan {
  spec: NounSpec;
  verb: string;
  kind: VerbKind;
  method: HttpMethod;
  path: string;
  endpoint: CatalogueEndpoint;
  /** First REST version with this method and path, read from the endpoint table (2.x's for a 2.x-only one). */
  since: string;
  role: Role;
  cls: DestructiveClass | null;
  select: readonly Selector[];
  fields: readonly FieldDef[];
  /** Query parameters offered as options (`--released`), beside the selector words and the body's fields. */
  options: readonly QueryOptionDef[];
  summary: string;
  /** Words after `<noun> <verb>` for the example (may be ""). */
  example: string;
  /** Offer the answer as a file with this name. */
  file?: string;
}

const NAMES: Selector = { param: "names", label: "name" };

const MUTATING_ROLE: Record<Area, Role> = {
  Storage: "operator",
  Protection: "operator",
  Replication: "operator",
  "Object store": "operator",
  Network: "admin",
  "Identity and security": "admin",
  Operations: "admin",
  Insight: "operator",
};

/** Settings-like areas: changing one of their objects is an `array_settings` change. */
const SETTINGS_AREAS = new Set<Area>(["Network", "Identity and security", "Operations"]);

function defaultClass(spec: NounSpec, kind: VerbKind): DestructiveClass | null {
  switch (kind) {
    case "delete":
    case "remove":
      return "delete";
    case "set":
      return "array_settings";
    case "update":
      return SETTINGS_AREAS.has(spec.area) ? "array_settings" : null;
    default:
      return null;
  }
}

const KIND_BY_METHOD: Record<NonNullable<NounSpec["kind"]>, Partial<Record<HttpMethod, VerbKind[]>>> = {
  collection: { GET: ["list", "show"], POST: ["create"], PATCH: ["update"], DELETE: ["delete"] },
  // A settings object some 2.x arrays keep several of (DNS configurations) is also added and removed there.
  singleton: { GET: ["show"], PATCH: ["set"], POST: ["create"], DELETE: ["delete"] },
  relation: { GET: ["list"], POST: ["add"], DELETE: ["remove"] },
  view: { GET: ["list", "show"] },
};

/** "a snmp manager" reads "an SNMP manager" aloud; articles follow the written first letter well enough. */
const a = (noun: string) => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);

const SUMMARY: Record<VerbKind, (noun: string) => string> = {
  list: (n) => `List ${n} objects`,
  show: (n) => `Show one ${n} in full`,
  create: (n) => `Create ${a(n)}`,
  update: (n) => `Change fields of ${a(n)} (before → after)`,
  delete: (n) => `Delete ${a(n)}`,
  set: (n) => `Change ${n} settings (before → after)`,
  add: (n) => `Add ${a(n)} membership`,
  remove: (n) => `Remove ${a(n)} membership`,
  action: (n) => `Run on ${n}`,
};

/** Whether the endpoint takes the selector: as its parameter, or as a filter on its field. */
export function accepts(endpoint: EndpointSpec, s: Selector): boolean {
  return s.param in endpoint.params || (s.field !== undefined && "filter" in endpoint.params);
}

/** Selectors the endpoint accepts: the resource's, else `names` when the endpoint takes it. */
function selectorsFor(spec: NounSpec, kind: VerbKind, endpoint: EndpointSpec): readonly Selector[] {
  const chosen = kind === "create" || kind === "add" ? (spec.createSelect ?? spec.select) : spec.select;
  if (chosen) return chosen.filter((s) => accepts(endpoint, s));
  return "names" in endpoint.params ? [NAMES] : [];
}

function plan(spec: NounSpec, kind: VerbKind, endpoint: CatalogueEndpoint): VerbPlan | undefined {
  let select = spec.kind === "singleton" && !spec.select ? [] : selectorsFor(spec, kind, endpoint);
  if (kind === "show" && spec.kind !== "singleton" && select.length === 0) return undefined;
  // A read-only view has `show` only where one object means something (its example says which).
  if (kind === "show" && spec.kind === "view" && spec.examples?.show === undefined) return undefined;
  // `names` alone picks the one object a show reads; the other selectors (a policy's workload, a lock's client)
  // only narrow it, so a name is enough and help's example need not invent the rest.
  if (kind === "show" && spec.rest2 && select.some((s) => s.param === "names"))
    select = select.map((s) => (s.param === "names" ? s : { ...s, optional: true }));
  if (kind === "list") {
    // `--name <pattern>` replaces the bare name on lists (a pattern without * is the exact name).
    if ("filter" in endpoint.params) select = select.filter((s) => s.param !== "names");
    select = select.map((s) => ({ ...s, optional: true }));
  }
  const mutating = endpoint.method !== "GET";
  const writable =
    kind === "update" || kind === "set"
      ? spec.writable?.filter((w) => !spec.createOnly?.includes(w))
      : undefined;
  const createWritable = spec.writable ? [...spec.writable, ...(spec.createOnly ?? [])] : undefined;
  // A selector's word selects: a body field of the same key (an NFS rule's read-only `policy` reference beside
  // `policy_names`) would take the word away from the query the array reads it from.
  const taken = new Set(select.map((s) => selectorKey(s.label)));
  const fields = (
    kind === "create" || kind === "add"
      ? writableFields(endpoint.body, spec, createWritable, kind === "create")
      : kind === "update" || kind === "set"
        ? writableFields(endpoint.body, spec, writable, true)
        : []
  ).filter((f) => !taken.has(f.key));
  const options = queryOptionsOf(spec, kind, endpoint, new Set([...taken, ...fields.map((f) => f.key)]));
  // An update with nothing settable from chat is left to `/array api`.
  // A 2.x-only PATCH without a body (run a check, move a remote array, release a held path) is a verb of its own
  // words and query options alone.
  const bodiless = only2x(endpoint) && endpoint.body === undefined;
  if ((kind === "update" || kind === "set") && fields.length === 0 && options.length === 0 && !bodiless)
    return undefined;
  return {
    spec,
    verb: spec.verbs?.[kind] ?? kind,
    kind,
    method: endpoint.method,
    path: endpoint.path,
    endpoint,
    since: endpoint.since,
    role: spec.roles?.[kind] ?? (mutating ? MUTATING_ROLE[spec.area] : "viewer"),
    // A class decided from the array's state has no fixed one: the hook (spec.classFrom) says it per change.
    cls: spec.classFrom?.[kind]
      ? null
      : spec.classes?.[kind] !== undefined
        ? (spec.classes[kind] ?? null)
        : defaultClass(spec, kind),
    select,
    fields,
    options,
    summary: spec.summaries?.[kind] ?? SUMMARY[kind](spec.title ?? spec.noun),
    example: spec.examples?.[kind] ?? "",
  };
}

/** Every verb of a catalogue entry, in the order help lists them. */
export function verbPlans(spec: NounSpec): VerbPlan[] {
  const kinds = KIND_BY_METHOD[spec.kind ?? "collection"];
  const out: VerbPlan[] = [];
  for (const method of ["GET", "POST", "PATCH", "DELETE"] as const) {
    const endpoint = findEndpoint(method, spec.path);
    // An operation only 2.x has joins a noun that asks for it (rest2, or rest2Methods naming its method): the 1.x
    // nouns keep their 1.x verbs otherwise.
    if (!endpoint || (only2x(endpoint) && !spec.rest2 && !spec.rest2Methods?.includes(method))) continue;
    for (const kind of kinds[method] ?? []) {
      const p = plan(spec, kind, endpoint);
      if (p) out.push(p);
    }
  }
  // A 2.x PUT (replace a preset, a batch of tags) is `replace`, its body's fields as options.
  const put = spec.rest2 ? findEndpoint("PUT", spec.path) : undefined;
  if (put) {
    out.push({
      spec,
      verb: "replace",
      kind: "action",
      method: "PUT",
      path: spec.path,
      endpoint: put,
      since: put.since,
      role: spec.roles?.["replace"] ?? MUTATING_ROLE[spec.area],
      cls: spec.classes?.["replace"] ?? null,
      select: (spec.select ?? []).filter((s) => accepts(put, s)).map((s) => ({ ...s, optional: true })),
      fields: writableFields(put.body, spec, undefined, true),
      options: [],
      summary: `Replace ${a(spec.title ?? spec.noun)} as a whole`,
      example: spec.examples?.["replace"] ?? "",
    });
  }
  for (const x of spec.extra ?? []) {
    const endpoint = findEndpoint(x.method, x.path);
    if (!endpoint) continue;
    const mutating = x.method !== "GET";
    out.push({
      spec,
      verb: x.verb,
      kind: "action",
      method: x.method,
      path: x.path,
      endpoint,
      since: endpoint.since,
      role: x.role ?? (mutating ? MUTATING_ROLE[spec.area] : "viewer"),
      cls: x.cls ?? null,
      select: (x.select ?? spec.select ?? ("names" in endpoint.params ? [NAMES] : []))
        .filter((s) => accepts(endpoint, s))
        .map((s) => ({ ...s, optional: true })),
      fields: x.secretFile
        ? [secretFileField(x.secretFile)]
        : x.document
          ? [documentField(x.document)]
          : x.fields
            ? writableFields(endpoint.body, spec, x.fields)
            : [],
      options: queryOptionsOf(spec, x.verb, endpoint, new Set()),
      summary: x.summary,
      example: spec.examples?.[x.verb] ?? "",
      ...(x.file ? { file: x.file } : {}),
    });
  }
  return out;
}

/** Problems with catalogue entries (paths the table lacks, unknown columns), as readable lines. */
export function checkSpecs(specs: readonly NounSpec[]): string[] {
  const problems: string[] = [];
  for (const s of specs) {
    if (!["GET", "POST", "PATCH", "DELETE"].some((m) => findEndpoint(m as HttpMethod, s.path)))
      problems.push(`${s.noun}: ${s.path} is not in the endpoint table`);
    for (const x of s.extra ?? [])
      if (!findEndpoint(x.method, x.path))
        problems.push(`${s.noun} ${x.verb}: ${x.method} ${x.path} is not in the endpoint table`);
    if (s.switches?.length && !findEndpoint("PATCH", s.path))
      problems.push(`${s.noun}: its switches need PATCH ${s.path}, which the endpoint table lacks`);
    const plans = verbPlans(s);
    if (plans.length === 0) problems.push(`${s.noun}: no verbs`);
    for (const p of plans) {
      const wanted = p.kind === "create" || p.kind === "add" ? (s.createSelect ?? s.select) : s.select;
      // An optional selector applies where the endpoint takes it (a DNS configuration's name, from 2.16).
      for (const sel of wanted ?? [])
        if (!accepts(p.endpoint, sel) && !sel.optional && p.kind !== "list" && p.kind !== "action")
          problems.push(`${s.noun} ${p.verb}: ${p.method} ${p.path} takes no ${sel.param}`);
    }
  }
  return problems;
}
