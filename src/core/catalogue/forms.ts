/**
 * A form for a change: its fields read from the command's argument schema (data, not a form per command), and
 * the command line a filled form stands for. A submitted form runs that line through the pipeline like a typed
 * command, so the access policy, validation, the impact, the gate and the audit are the same ones.
 */
import type { z } from "zod";
import { UserFacingError } from "../../errors.js";
import { ENDPOINTS, type HttpMethod } from "../../rest-spec/endpoints.js";
import { ENDPOINTS_2X } from "../../rest-spec/endpoints-2x.js";
import { findOperation } from "../../rest-spec/operations.js";
import { compareVersions } from "../../rest-spec/versions.js";
import { describeArg, enumValues, isOptional, isSwitch, keyToOption } from "../words/schema-introspect.js";
import { wordOf } from "../words/tokenize.js";
import type { FormLayout } from "./define-command.js";
import type { Registry } from "./registry.js";

export interface FormField {
  /** The argument's key; also the input's block id. */
  key: string;
  /** `--hard-limit`; absent for a positional argument. */
  option?: string;
  label: string;
  /** The label is a person's words (the command's form layout), shown instead of the option. */
  worded?: true;
  kind: "text" | "switch" | "choice";
  choices?: readonly string[];
  optional: boolean;
  hint?: string;
  /** An existing object's name: the GET path that lists what may be picked (a menu that searches the array). */
  lookup?: string;
  /** The field of each listed item that is its name (`name`, or `remote.name` for an array connection). */
  lookupField?: string;
  /** The value the form opens with (a Change prefilled from the object as it is). */
  initial?: string | boolean;
}

export interface FormSpec {
  /** "fs create": what the line starts with. */
  path: string;
  title: string;
  summary: string;
  /** Only arrays on this REST version or newer have the change (a 2.x-only family): the form says so. */
  since?: string;
  fields: FormField[];
}

const MAX_FIELDS = 20;

const labelOf = (key: string) => {
  const words = keyToOption(key).replace(/-/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** Verbs whose `name` is a new object's: typed, not picked. */
const NEW_OBJECT_VERBS = new Set(["create", "add", "import"]);
// Both generations' lists: a 2.x-only noun's objects are picked from its own 2.x list.
const LISTABLE = new Set(
  [...ENDPOINTS, ...ENDPOINTS_2X].filter((e) => e.method === "GET").map((e) => e.path),
);

/**
 * Arguments that name an existing object of another kind, whatever the command: the list it is picked from (a
 * GET of the interface table) and the field that is each item's name. Keyed by argument, so every command that
 * takes `--file-system`, `--policy`, `--account` or `--remote` gets the same menu without a form of its own.
 */
export const OBJECT_ARGS: Readonly<Record<string, { path: string; field: string }>> = {
  fs: { path: "/file-systems", field: "name" },
  fileSystem: { path: "/file-systems", field: "name" },
  policy: { path: "/policies", field: "name" },
  account: { path: "/object-store-accounts", field: "name" },
  remote: { path: "/array-connections", field: "remote.name" },
  bucket: { path: "/buckets", field: "name" },
  certificate: { path: "/certificates", field: "name" },
};

/** The list an existing object's name is picked from: the GET of the path the command changes. */
function lookupOf(verb: string, endpoints: readonly string[] | undefined): string | undefined {
  if (NEW_OBJECT_VERBS.has(verb)) return undefined;
  const path = /^(?:PATCH|DELETE|POST) (\/\S+)/.exec(endpoints?.[0] ?? "")?.[1];
  return path !== undefined && LISTABLE.has(path) ? path : undefined;
}

/** Where a field's value is picked from, or undefined when it is typed. */
function pickedFrom(
  key: string,
  positional: boolean,
  ownLookup: string | undefined,
  endpoints: readonly string[] | undefined,
  layout: FormLayout | undefined,
): { path: string; field: string } | undefined {
  const chosen = layout?.lookups?.[key];
  if (chosen !== undefined) return chosen ?? undefined;
  if (key === "name") return positional && ownLookup ? { path: ownLookup, field: "name" } : undefined;
  const other = OBJECT_ARGS[key];
  if (!other || !LISTABLE.has(other.path)) return undefined;
  // `array-connection create --remote`: the object the command makes is new, not picked from its own list.
  const own = /^POST (\/\S+)/.exec(endpoints?.[0] ?? "")?.[1];
  return own === other.path ? undefined : other;
}

/**
 * The form of a changing command typed as `path` ("fs create"), or undefined when it has none. `arrays`, when
 * there is more than one, adds a menu of the arrays the form may run on (the channel's default when left empty).
 */
export function formFor(
  registry: Registry,
  path: string,
  arrays: readonly string[] = [],
): FormSpec | undefined {
  const entry = registry.all().find((e) => e.path === path.trim().toLowerCase());
  if (!entry?.command.impact) return undefined;
  const lookup = lookupOf(entry.command.verb, entry.command.endpoints);
  const shape = entry.command.args.shape as Record<string, z.ZodType>;
  const positional = new Set<string>(entry.command.positional ?? []);
  const layout = entry.command.form;
  const since = onlySince(entry.command.endpoints);
  const fields: FormField[] = [];
  for (const [key, schema] of Object.entries(shape)) {
    const choices = enumValues(schema);
    const hint = hintOf(describeArg(schema), layout?.hints?.[key], since);
    const picked = choices
      ? undefined
      : pickedFrom(key, positional.has(key), lookup, entry.command.endpoints, layout);
    fields.push({
      key,
      ...(picked ? { lookup: picked.path, lookupField: picked.field } : {}),
      ...(positional.has(key) ? {} : { option: `--${keyToOption(key)}` }),
      label: layout?.labels?.[key] ?? labelOf(key),
      ...(layout?.labels?.[key] ? { worded: true as const } : {}),
      kind: isSwitch(schema) ? "switch" : choices ? "choice" : "text",
      ...(choices ? { choices } : {}),
      optional: isOptional(schema),
      ...(hint ? { hint } : {}),
    });
  }
  if (fields.length === 0 || fields.length > MAX_FIELDS) return undefined;
  // Positional arguments first, in their order: the line reads as a person would type it. Then the options in
  // the layout's order (the order a person thinks in), then the rest as the schema lists them.
  const order = [...(entry.command.positional ?? []), ...(layout?.order ?? [])];
  fields.sort((a, b) => {
    const ia = order.indexOf(a.key);
    const ib = order.indexOf(b.key);
    return (ia < 0 ? order.length : ia) - (ib < 0 ? order.length : ib);
  });
  if (arrays.length > 1 && !Object.hasOwn(shape, "array"))
    fields.push({
      key: "array",
      option: "--array",
      label: "Array",
      kind: "choice",
      choices: arrays,
      optional: true,
    });
  return {
    path: entry.path,
    title: layout?.title ?? entry.path,
    summary: entry.command.summary,
    ...(since ? { since } : {}),
    fields,
  };
}

const SINCE = /\s*\(REST (\d+\.\d+)\+\)$/;

/**
 * The first 2.x version of a command whose request only REST 2.x has (a 2.x-only family), or undefined when
 * 1.x has it too: the form says so once, and a field says its own version only when it came later.
 */
function onlySince(endpoints: readonly string[] | undefined): string | undefined {
  const m = /^(GET|POST|PATCH|PUT|DELETE) (\/\S+)/.exec(endpoints?.[0] ?? "");
  const op = m ? findOperation(m[1] as HttpMethod, m[2] ?? "") : undefined;
  return op?.v2 && !op.v1 ? op.v2.since : undefined;
}

/** A field's hint: the layout's words (or the schema's), with the field's REST version when later than the form's. */
function hintOf(described: string | undefined, chosen: string | undefined, since: string | undefined) {
  const version = described === undefined ? undefined : SINCE.exec(described)?.[1];
  const words = chosen ?? described?.replace(SINCE, "");
  const later = version !== undefined && (since === undefined || compareVersions(version, since) > 0);
  const hint = `${words ?? ""}${later ? ` (REST ${version}+)` : ""}`.trim();
  return hint === "" ? undefined : hint;
}

/**
 * The command line a filled form stands for: positional values in order, then `--option value` for each
 * filled field and `--switch` for each ticked one. Each value, its surrounding blanks trimmed, is one word that
 * the parser reads back exactly (wordOf); a value no quoting can carry is refused as `• --option: …`, the form
 * of a field error (src/slack/form-modal.ts `fieldErrors`), so the modal shows it beside its box. After an empty
 * positional field the later ones are given by option (`--size 2T`): by place they would fill the empty one.
 */
export function formLine(
  form: FormSpec,
  values: Readonly<Record<string, string | boolean | undefined>>,
): string {
  const words = [form.path];
  let gap = false;
  for (const f of form.fields) {
    const v = values[f.key];
    if (f.kind === "switch") {
      if (v === true && f.option) words.push(f.option);
      continue;
    }
    const text = v === undefined || v === false ? "" : String(v).trim();
    if (text === "") {
      gap ||= f.option === undefined;
      continue;
    }
    const option = f.option ?? (gap ? `--${keyToOption(f.key)}` : undefined);
    words.push(...(option ? [option, valueWord(text, f)] : [valueWord(text, f)]));
  }
  return words.join(" ");
}

function valueWord(text: string, f: FormField): string {
  try {
    return wordOf(text, f.option ?? `<${keyToOption(f.key)}>`);
  } catch (err) {
    if (err instanceof UserFacingError) throw new UserFacingError(err.code, `• ${err.message}`);
    throw err;
  }
}
