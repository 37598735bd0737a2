/**
 * Query options of a changing verb: the documented query parameters of its endpoint that are not body fields and
 * not the words that select the object (a held path's `paths` and `released`, a replica link's `replicate_now`).
 * The catalogue entry names which a verb offers (NounSpec.queryOptions); the kind of each comes from the endpoint
 * table, so the option is typed as the array reads it, validated once by the verb's zod schema, and sent as a query
 * parameter: the card's request line shows it like every other parameter.
 */
import { z } from "zod";
import { count, flag } from "../../../src/core/words/arg-types.js";
import { ITEM, listWire, textWire, wired } from "../../../src/core/words/arg-wire.js";
import type { ParamKind } from "../../../src/rest-spec/endpoints.js";
import type { NounSpec, VerbName } from "../spec.js";
import type { CatalogueEndpoint } from "./endpoint.js";

export interface QueryOptionDef {
  param: string;
  /** The zod key: "replicateNow". */
  key: string;
  /** The option: "replicate-now". */
  option: string;
  kind: ParamKind;
  help: string;
  /** The first 2.x version whose endpoint takes it, where later than the endpoint's own. */
  since?: string;
}

const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * The options `verb` offers on `endpoint`: the entry's, where the endpoint takes the parameter and its key is not a
 * selector's or a field's already (`taken`).
 */
export function queryOptionsOf(
  spec: NounSpec,
  verb: VerbName,
  endpoint: CatalogueEndpoint,
  taken: ReadonlySet<string>,
): QueryOptionDef[] {
  const out: QueryOptionDef[] = [];
  for (const o of spec.queryOptions?.[verb] ?? []) {
    const kind = endpoint.params[o.param];
    const key = camel(o.param);
    if (kind === undefined || taken.has(key)) continue;
    const since = endpoint.op.v2?.paramsSince?.[o.param];
    out.push({
      param: o.param,
      key,
      option: o.param.replace(/_/g, "-"),
      kind,
      help: o.help,
      ...(since ? { since } : {}),
    });
  }
  return out;
}

const text = z
  .string()
  .trim()
  .min(1, "the value is empty")
  .max(1024, "longer than 1024 characters")
  .refine((s) => ![...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f), {
    message: "contains control characters",
  });

/** The option's schema, from the parameter's kind: a flag, a whole number, text, or comma-separated values. */
export function queryOptionSchema(o: QueryOptionDef): z.ZodType {
  const help = `${o.help}${o.since ? ` (REST ${o.since}+)` : ""}`;
  switch (o.kind) {
    case "boolean":
      return flag().describe(help);
    case "integer":
      return count({ min: 0, max: Number.MAX_SAFE_INTEGER }).optional().describe(help);
    case "list":
      return wired(
        z
          .string()
          .transform((v) =>
            v
              .split(",")
              .map((x) => x.trim())
              .filter(Boolean),
          )
          .pipe(z.array(text).min(1, "give at least one value").max(64)),
        listWire(ITEM),
      )
        .optional()
        .describe(`${help}, comma-separated`);
    default:
      return wired(text, textWire(1024, true)).optional().describe(help);
  }
}

/** The query parameters of the options given, in the wire's words (lists joined by commas, booleans as words). */
export function queryOptionValues(
  options: readonly QueryOptionDef[],
  args: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const q: Record<string, string> = {};
  for (const o of options) {
    const v = args[o.key];
    if (v === undefined) continue;
    q[o.param] = Array.isArray(v) ? v.join(",") : String(v);
  }
  return q;
}
