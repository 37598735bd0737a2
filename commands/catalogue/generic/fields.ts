/**
 * Writable fields of a catalogue verb, read from the body model the endpoint table names and the model facts
 * in src/rest-spec: each becomes an option (`--relay-host`, `--v2c-user`) validated by a zod schema built from
 * its SDK type, its unit and its bounds. Secrets (text fields src/rest-spec/secrets.ts lists) are never taken from chat,
 * where they would stay in Slack's history and in the audit log: create and update verbs offer them as flags
 * (`--password`) whose value the pipeline asks for in a private dialog (see secret-fields.ts).
 */
import { z } from "zod";
import {
  count,
  duration,
  flag,
  objectName,
  size,
  typedValue,
  VALUE_HELP,
  type ValueType,
} from "../../../src/core/words/arg-types.js";
import { ITEM, listWire, textWire, VALUE_ITEMS, wired, wireOf } from "../../../src/core/words/arg-wire.js";
import type { ModelField } from "../../../src/rest-spec/models.js";
import { MODELS_2X } from "../../../src/rest-spec/models-2x.js";
import { isSecretKey, mintsSecret } from "../../../src/rest-spec/secrets.js";
import type { DocumentOption, NounSpec, Unit } from "../spec.js";
import { documentSchema } from "./document.js";
import { modelOf } from "./models-of.js";
import { normalisePem, PEM_FIELD, PEM_MAX } from "./pem.js";

/** "a, b,c" → ["a", "b", "c"]: how a list is typed on one chat line (empty pieces dropped). */
const commaList = z.string().transform((v) =>
  v
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean),
);

export interface FieldDef {
  /** JSON path in the body: ["v2c", "community"]. */
  path: readonly string[];
  /** The zod key (camelCase of the option): "v2cCommunity". */
  key: string;
  /** The option: "v2c-community". */
  option: string;
  type: string;
  unit?: Unit;
  since?: string;
  model: ModelField;
  /** A secret: its option is a flag and its value is asked privately, never typed in chat. */
  secret?: true;
  /** What kind of value it holds (an IP address, a port…), checked before any card is shown. */
  value?: ValueType;
  /** May be emptied (`--relay-host ""`): a service's last server, removed through its own gate class. */
  clearable?: true;
  /** A list of references each wrapped in an object under this key (the spec's `referenceLists`). */
  wrap?: string;
  /** The whole body: a JSON document typed as this option (an extra verb's `document`). */
  document?: DocumentOption;
  /** A secret file (an extra verb's `secretFile`): always asked, as base64, in the private dialog. */
  file?: true;
}

/**
 * Value kinds by field name, wherever the name means one thing in every model; a noun's `values` adds the
 * ones that depend on the model (a subnet's `prefix` is a CIDR prefix, a keytab's is not).
 */
const VALUE_BY_FIELD: Readonly<Record<string, ValueType>> = {
  nameservers: "ip",
  gateway: "ip",
  ntp_servers: "host",
  relay_host: "host",
  sender_domain: "host",
  vlan: "vlan",
  mtu: "mtu",
  port: "port",
};

const IDENTITY = new Set(["name", "id"]);
const SCALARS = new Set(["str", "int", "float", "bool", "list[str]"]);
const REFERENCES = /^(Reference|FixedReference\w*|LocationReference)$/;
/** A list of references (a group's ports): typed as names separated by commas, sent as `[{name}, …]`. */
const REFERENCE_LISTS = /^list\[(Reference|FixedReference\w*)\]$/;

function camel(parts: readonly string[]): string {
  return parts
    .join("_")
    .replace(/[-_]+([a-z0-9])/g, (_, c: string) => c.toUpperCase())
    .replace(/^[A-Z]/, (c) => c.toLowerCase());
}

function def(path: string[], model: ModelField, unit: Unit | undefined, value?: ValueType): FieldDef {
  const key = camel(path);
  return {
    ...(value ? { value } : {}),
    path,
    key,
    option: key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
    type: model.type,
    ...(unit ? { unit } : {}),
    ...(model.since ? { since: model.since } : {}),
    model,
  };
}

/**
 * A field whose name says it holds a secret: a text one becomes a secret field; any other (a bool that makes the
 * array create a token and answer with it, a token object) is left to `/array api`.
 */
function secretOrSkip(path: string[], f: ModelField): FieldDef | "skip" | undefined {
  const name = path.at(-1) ?? "";
  if (mintsSecret(name)) return "skip";
  if (!isSecretKey(name)) return undefined;
  return f.type === "str" ? { ...def(path, f, undefined), secret: true } : "skip";
}

/** Every field of `modelName` a person may set from chat, one level of nested objects flattened. */
export function modelFields(modelName: string | undefined, spec: NounSpec): FieldDef[] {
  const model = modelOf(modelName);
  if (!model) return [];
  const out: FieldDef[] = [];
  const clearable = (f: FieldDef): FieldDef =>
    spec.lastServer?.[f.path.join(".")] === undefined ? f : { ...f, clearable: true };
  for (const [name, f] of Object.entries(model.fields)) {
    if (name === "name" && spec.renamable && f.type === "str") {
      out.push({ ...def([name], f, undefined), key: "newName", option: "new-name" });
      continue;
    }
    if (IDENTITY.has(name)) continue;
    const secret = secretOrSkip([name], f);
    if (secret !== undefined) {
      if (secret !== "skip") out.push(secret);
      continue;
    }
    if (SCALARS.has(f.type) || REFERENCES.test(f.type) || REFERENCE_LISTS.test(f.type)) {
      const values = spec.choices?.[name];
      const model = values ? { ...f, values } : f;
      out.push(
        clearable(def([name], model, spec.units?.[name], spec.values?.[name] ?? VALUE_BY_FIELD[name])),
      );
      continue;
    }
    const nested = modelOf(f.type);
    if (!nested || f.type.startsWith("list[")) continue;
    for (const [sub, sf] of Object.entries(nested.fields)) {
      if (sub === "id") continue;
      const nestedSecret = secretOrSkip([name, sub], sf);
      if (nestedSecret !== undefined) {
        if (nestedSecret !== "skip") out.push(nestedSecret);
        continue;
      }
      if (!SCALARS.has(sf.type)) continue;
      const path = `${name}.${sub}`;
      out.push(def([name, sub], sf, spec.units?.[path], spec.values?.[path] ?? VALUE_BY_FIELD[sub]));
    }
  }
  return [...out, ...wrappedLists(modelName, spec)];
}

/**
 * The spec's lists of wrapped references, where the body model has the field writable: typed as names, sent as
 * `[{<wrap>: {name}}, …]` (their model is a list of objects, which the loop above leaves to `/array api`).
 */
function wrappedLists(modelName: string | undefined, spec: NounSpec): FieldDef[] {
  return Object.entries(spec.referenceLists ?? {}).flatMap(([name, r]) => {
    const raw = modelName ? MODELS_2X[modelName]?.[name] : undefined;
    if (!raw || raw.ro || raw.last !== undefined) return [];
    const model: ModelField = { type: "list[Reference]", ...(raw.since ? { since: raw.since } : {}) };
    return [{ ...def([name], model, undefined), key: camel([r.option]), option: r.option, wrap: r.wrap }];
  });
}

/**
 * The fields of a verb: the resource's writable list (when given) picks from the model's fields. Secret fields
 * come with `secrets` (create and update verbs) whatever the list says: the writable lists name what may be
 * typed in chat, and a secret never is.
 */
export function writableFields(
  modelName: string | undefined,
  spec: NounSpec,
  only?: readonly string[],
  secrets = false,
): FieldDef[] {
  const all = modelFields(modelName, spec).filter(
    (f) => !f.secret || (secrets && (spec.secrets?.includes(f.path.join(".")) ?? true)),
  );
  const allowed = only ?? spec.writable;
  if (!allowed) return all;
  return all.filter(
    (f) => f.secret || allowed.includes(f.path.join(".")) || allowed.includes(f.path[0] ?? ""),
  );
}

const text = (max: number) =>
  wired(
    z
      .string()
      .trim()
      .min(1, "the value is empty")
      .max(max, `longer than ${max} characters`)
      .refine(
        (s) => ![...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f),
        "contains control characters",
      ),
    textWire(max, true),
  );

/** The zod schema of one field's option, from its SDK type, unit and bounds. */
export function fieldSchema(f: FieldDef): z.ZodType {
  const m = f.model;
  let s: z.ZodType;
  if (f.secret)
    return flag().describe(
      `a flag: the value is asked in a private dialog, never typed in chat${f.since ? ` (REST ${f.since}+)` : ""}`,
    );
  if (f.document) return documentSchema(f.document);
  if (f.type === "bool") return flag();
  if (f.value) {
    const one = typedValue(f.value);
    s =
      f.type === "list[str]"
        ? wired(
            commaList.pipe(z.array(one as z.ZodType<string | number, string>).max(64)),
            listWire(`(${VALUE_ITEMS[f.value]})`),
          )
        : one;
  } else if (f.type === "int" || f.type === "float") {
    if (f.unit === "size") s = size({ min: m.min ?? 0 });
    else if (f.unit === "ms") s = duration();
    else if (f.unit === "s") s = duration().transform((ms) => Math.round(ms / 1000));
    else s = count({ min: m.min ?? 0, max: m.max ?? Number.MAX_SAFE_INTEGER });
  } else if (f.type === "list[str]") {
    s = wired(commaList.pipe(z.array(text(255)).max(64)), listWire(ITEM));
  } else if (REFERENCES.test(f.type)) {
    s = objectName(f.option).transform((name) => ({ name }));
  } else if (REFERENCE_LISTS.test(f.type)) {
    s = wired(
      commaList
        .pipe(z.array(objectName(f.option)).min(1, "name at least one").max(64))
        .transform((names) => names.map((name) => (f.wrap ? { [f.wrap]: { name } } : { name }))),
      listWire(ITEM),
    );
  } else if (m.values) {
    s = z.enum(m.values as [string, ...string[]]);
  } else if (PEM_FIELD.test(f.path.at(-1) ?? "")) {
    s = text(m.maxLength ?? PEM_MAX).transform(normalisePem);
  } else {
    s = text(m.maxLength ?? 1024);
  }
  if (f.clearable && f.type === "str") s = emptyOr(s);
  return s.optional().describe(describe(f));
}

/**
 * `""` (empty the field) or a value `inner` takes, with `inner`'s own message when it is neither: a union would
 * answer only "Invalid input".
 */
function emptyOr(inner: z.ZodType): z.ZodType {
  const schema = z.string().transform((v, ctx) => {
    if (v === "") return v;
    const r = inner.safeParse(v);
    if (r.success) return r.data;
    for (const issue of r.error.issues) ctx.addIssue({ code: "custom", message: issue.message });
    return z.NEVER;
  });
  const json = wireOf(inner)?.json ?? { type: "string" };
  return wired(schema, { json: { anyOf: [{ type: "string", enum: [""] }, json] } });
}

function describe(f: FieldDef): string {
  const unit = f.value
    ? `${VALUE_HELP[f.value]}${f.type === "list[str]" ? ", comma-separated" : ""}`
    : f.unit === "size"
      ? "a size (500G, 2T)"
      : f.unit === "ms" || f.unit === "s"
        ? "a duration (30m, 24h, 7d)"
        : f.type === "list[str]"
          ? "comma-separated values"
          : REFERENCES.test(f.type)
            ? "a name"
            : REFERENCE_LISTS.test(f.type)
              ? `comma-separated ${f.wrap ? `${f.wrap} ` : ""}names`
              : PEM_FIELD.test(f.path.at(-1) ?? "")
                ? "PEM text, quoted; pasted on one line is fine"
                : f.model.values
                  ? `one of ${f.model.values.join(", ")}`
                  : f.type === "int"
                    ? "a whole number"
                    : "text";
  return `${unit}${f.since ? ` (REST ${f.since}+)` : ""}`;
}

/** The request body for the values given; absent options stay out of the body. */
export function bodyOf(fields: readonly FieldDef[], args: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    const v = args[f.key];
    // A secret's option only asks for it; its value joins the body at run time (secret-fields.ts).
    if (v === undefined || f.secret) continue;
    if (f.document) {
      Object.assign(body, v);
      continue;
    }
    let at = body;
    for (const p of f.path.slice(0, -1)) {
      at[p] ??= {};
      at = at[p] as Record<string, unknown>;
    }
    at[f.path.at(-1) as string] = v;
  }
  return body;
}
