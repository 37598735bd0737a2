/** What every generic verb shares: its argument schema, the query its words select, and the version gate. */
import { z } from "zod";
import type { CommandContext } from "../../../src/core/catalogue/define-command.js";
import { objectName, typedValue, type ValueType } from "../../../src/core/words/arg-types.js";
import { versionTooOld } from "../../../src/flashblade/errors.js";
import { and, eq, type Filter } from "../../../src/flashblade/filter.js";
import type { NameKind } from "../../../src/rest-spec/names.js";
import { atLeast } from "../../../src/rest-spec/versions.js";
import type { VerbPlan } from "./derive.js";
import { requireOperation } from "./endpoint.js";
import { fieldSchema } from "./fields.js";
import { queryOptionSchema } from "./query-options.js";

export type Args = Record<string, unknown>;

/** zod key of a selector: "member_names" with label "file-system" → "fileSystem". */
export function selectorKey(label: string): string {
  return label.replace(/[-_ ]+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The args schema: selectors (bare words), the fields (options), and whatever the verb adds. */
export function argsSchema(p: VerbPlan, extra: Record<string, z.ZodType> = {}): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const s of p.select) {
    // A POST's `names` name new objects: refused before sending when no array would take them. A new object's
    // name may also be a value of a kind (a watcher is an e-mail address): checked like any field.
    const isNew = p.method === "POST" && s.param === "names";
    const kind = p.kind === "create" && s.param === "names" ? p.spec.values?.["name"] : undefined;
    // "arrays take no such account name": the rule's word is the noun's last ("object store account").
    const rule = isNew ? (p.spec.nameKind ?? "any") : undefined;
    const what = p.spec.nameKind ? `${(p.spec.title ?? p.spec.noun).split(" ").at(-1)} name` : s.label;
    shape[selectorKey(s.label)] = selectorSchema(kind, what, rule, s.label, s.optional === true);
  }
  for (const f of p.fields) shape[f.key] = fieldSchema(f);
  for (const o of p.options) shape[o.key] = queryOptionSchema(o);
  return z.object({ ...shape, ...extra });
}

/**
 * Selector schemas by everything that makes them differ: verbs of one noun and nouns of one family name their
 * objects alike, and one name schema (its checks, messages and wire form) is ~14 KiB of zod instances.
 */
const selectors = new Map<string, z.ZodType>();

function selectorSchema(
  kind: ValueType | undefined,
  what: string,
  rule: NameKind | undefined,
  label: string,
  optional: boolean,
): z.ZodType {
  const key = JSON.stringify([kind, what, rule, label, optional]);
  let schema = selectors.get(key);
  if (schema === undefined) {
    const name = (kind ? typedValue(kind) : objectName(what, rule)).describe(`the ${label}`);
    schema = optional ? name.optional() : name;
    selectors.set(key, schema);
  }
  return schema;
}

function positionalOf(p: VerbPlan): string[] {
  return p.select.map((s) => selectorKey(s.label));
}

/** What every generic verb declares the same way from its plan: words, help, example, role, positionals. */
export function headOf(p: VerbPlan) {
  return {
    verb: p.verb,
    summary: p.summary,
    examples: [
      `${p.spec.noun} ${p.verb}${p.example ? ` ${p.example}` : ""}`,
      // Keyed like `examples`: by the generic verb, or an extra verb's own word.
      ...(p.spec.moreExamples?.[p.kind === "action" ? p.verb : p.kind] ?? []).map(
        (e) => `${p.spec.noun} ${p.verb} ${e}`,
      ),
    ],
    role: p.role,
    positional: positionalOf(p),
  };
}

/**
 * Query parameters from the selector words given; a selector the endpoint takes no parameter for becomes
 * a filter on its field (quoted by the filter builder, so the words cannot widen it).
 */
export function selectorQuery(p: VerbPlan, args: Args): Record<string, string> {
  const q: Record<string, string> = {};
  const filters: Filter[] = [];
  for (const s of p.select) {
    const v = args[selectorKey(s.label)];
    if (typeof v !== "string") continue;
    if (s.param in p.endpoint.params) q[s.param] = v;
    else if (s.field) filters.push(eq(s.field, v));
  }
  if (filters.length) q["filter"] = and(...filters);
  return q;
}

/** The first selector word: the object's name, as hooks and answers see it. */
export function nameOf(p: VerbPlan, args: Args): string {
  const first = p.select[0];
  return first ? String(args[selectorKey(first.label)] ?? "") : "";
}

/** An answer template filled: "{name}" → the object's name, "{versioning}" → the option's value. */
export const fill = (template: string, values: Args) =>
  template.replace(/\{(\w+)\}/g, (all, key: string) =>
    values[key] === undefined ? all : String(values[key]),
  );

/** "snmp manager trap1", "quota user projects/alice", "dns". */
export function targetOf(p: VerbPlan, args: Args): string {
  const words = p.select.map((s) => args[selectorKey(s.label)]).filter((v) => typeof v === "string");
  const title = p.spec.title ?? p.spec.noun;
  return words.length ? `${title} ${words.join(" / ")}` : title;
}

/**
 * Refuses before anything is sent when the array's REST version lacks the verb or a field given:
 * "needs REST 1.12, fb-lab-02 runs 1.10".
 */
export async function requireVersion(p: VerbPlan, args: Args, ctx: CommandContext): Promise<string> {
  const version = await ctx.array.version();
  const what = `\`${p.spec.noun} ${p.verb}\``;
  requireOperation(p.endpoint, ctx, version, what, p.since);
  for (const f of p.fields) {
    if (args[f.key] !== undefined && f.since && !atLeast(version, f.since)) {
      throw versionTooOld(ctx.arrayName, version, f.since, `--${f.option}`);
    }
  }
  return version;
}

/** The version gate of `list`, naming what needs the version where the resource says (spec.listing.needs). */
export async function requireListVersion(p: VerbPlan, args: Args, ctx: CommandContext): Promise<void> {
  const needs = p.spec.listing?.needs;
  if (needs === undefined) {
    await requireVersion(p, args, ctx);
    return;
  }
  const version = await ctx.array.version();
  requireOperation(p.endpoint, ctx, version, needs, p.since);
}
