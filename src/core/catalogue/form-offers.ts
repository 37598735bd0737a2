/**
 * The forms a list answer offers (Create, Change), and a Change form prefilled from the object as it is. The
 * offer is data on the message: a face that shows forms (Slack) turns it into a button and a menu, a face that
 * does not (the console) shows the same text as before. Offers follow the access policy: only changes the
 * person's role on that array allows are offered, and opening one checks the role again.
 */
import type { z } from "zod";
import { forbidden } from "../access/authz.js";
import { type Role, roleAtLeast } from "../access/roles.js";
import type { FormOffer, Message } from "../presentation/message.js";
import { tableSource } from "../presentation/table.js";
import { type FormField, type FormSpec, formFor } from "./forms.js";
import type { CommandEntry, Registry } from "./registry.js";

/** Slack offers at most 100 options in a menu; the names of more rows are picked in the form's own menu. */
const MAX_NAMES = 100;

const nounOf = (entry: CommandEntry) => entry.resource.name;

/** The changing command `<noun> <verb>` when it has a form and `role` may run it. */
function allowedForm(registry: Registry, noun: string, verb: string, role: Role | undefined) {
  const entry = withForm(registry, `${noun} ${verb}`);
  return entry && roleAtLeast(role, entry.command.role) ? entry : undefined;
}

/**
 * The command at `path` when it has a form, looked up once per registry: whether a command has a form depends on
 * its definition only, and building the form to find out was a good part of every list's own cost (issue 27).
 */
function withForm(registry: Registry, path: string): CommandEntry | undefined {
  let known = FORM_ENTRIES.get(registry);
  if (known === undefined) {
    known = new Map();
    FORM_ENTRIES.set(registry, known);
  }
  if (!known.has(path)) {
    const entry = registry.all().find((e) => e.path === path);
    known.set(path, entry && formFor(registry, entry.path) ? entry : undefined);
  }
  return known.get(path);
}
const FORM_ENTRIES = new WeakMap<Registry, Map<string, CommandEntry | undefined>>();

/** The list's object names as shown (its `name` column), for the Change menu. */
function namesOf(message: Message): string[] {
  for (const b of message.blocks) {
    if (b.type !== "table") continue;
    const rows = tableSource(b)?.rows ?? b.rows;
    if (!b.columns.some((c) => c.key === "name")) return [];
    // The first MAX_NAMES distinct names in order, read in one pass that stops there.
    const names = new Set<string>();
    for (const r of rows) {
      const n = r["name"];
      if (n === undefined || n === "") continue;
      names.add(n);
      if (names.size >= MAX_NAMES) break;
    }
    return [...names];
  }
  return [];
}

/**
 * `message` with the forms its list may offer on `array`: Create when the noun has a create form, Change (a
 * menu of the listed names) when it has an update form, each only when `role` may run it there.
 */
export function withFormOffers(
  registry: Registry,
  entry: CommandEntry,
  role: Role | undefined,
  array: string,
  message: Message,
): Message {
  if (entry.command.verb !== "list" || message.error !== undefined) return message;
  const noun = nounOf(entry);
  const offers: FormOffer[] = [];
  const create = allowedForm(registry, noun, "create", role);
  if (create) offers.push({ path: create.path, label: `Create ${noun}`, array });
  const update = allowedForm(registry, noun, "update", role);
  const names = update ? namesOf(message) : [];
  if (update && names.length > 0) offers.push({ path: update.path, label: `Change ${noun}`, array, names });
  return offers.length === 0 ? message : { ...message, forms: offers };
}

/** The form to open for `path` as a person whose role on the array is `role`; refused as a typed command is. */
export function offeredForm(
  registry: Registry,
  path: string,
  role: Role | undefined,
  array: string,
  arrays: readonly string[],
): FormSpec {
  const entry = registry.all().find((e) => e.path === path.trim().toLowerCase());
  const form = entry && formFor(registry, entry.path, arrays);
  if (!entry || !form) throw forbidden(`\`${path}\``, "admin", role, array);
  if (!roleAtLeast(role, entry.command.role))
    throw forbidden(`\`${entry.path}\``, entry.command.role, role, array);
  return form;
}

const camelWords = (key: string) => key.split(/(?=[A-Z])/).map((w) => w.toLowerCase());

/** Where an argument's current value may sit in the object as the array returns it (`hardLimit` → `hard_limit_enabled`, `smbAclMode` → `smb.acl_mode`). */
function candidates(key: string): string[][] {
  const w = camelWords(key);
  const flat = w.join("_");
  const nested = w.length > 1 ? [[w[0] ?? "", w.slice(1).join("_")]] : [];
  const out: string[][] = [[flat], [`${flat}_enabled`], ...nested];
  for (const n of nested) out.push([n[0] ?? "", `${n[1]}_enabled`]);
  if (w.length === 1) out.push([flat, "enabled"]);
  return out;
}

const at = (item: unknown, path: readonly string[]) =>
  path.reduce<unknown>(
    (o, k) => (o && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined),
    item,
  );

const UNITS: readonly [string, number][] = [
  ["T", 2 ** 40],
  ["G", 2 ** 30],
  ["M", 2 ** 20],
  ["K", 2 ** 10],
];

/** A byte count as a size the parser reads back exactly (`2T`, `1536M`, `1000B`). */
function exactSize(bytes: number): string {
  for (const [u, n] of UNITS) if (bytes >= n && bytes % n === 0) return `${bytes / n}${u}`;
  return `${bytes}B`;
}

/** The arguments' schemas: a current value is offered only when the command would take it back as it is. */
type Shape = Readonly<Record<string, z.ZodType>>;

function initialOf(f: FormField, item: unknown, shape: Shape): string | boolean | undefined {
  const takes = (v: string) => shape[f.key]?.safeParse(v).success !== false;
  for (const path of candidates(f.key)) {
    const v = at(item, path);
    if (f.kind === "switch") {
      if (typeof v === "boolean") return v;
      continue;
    }
    if (typeof v === "string" && v !== "")
      return (!f.choices || f.choices.includes(v)) && takes(v) ? v : undefined;
    // A number goes back as the command reads it: a size needs its unit (a bare number is refused as ambiguous).
    if (typeof v === "number") return [String(v), exactSize(v)].find(takes);
  }
  return undefined;
}

/**
 * `form` with `name` picked and each field that the object shows filled with its current value (a switch says
 * its current state in its hint). With the
 * command's `args`, a value is kept only while the values kept so far still pass the command's own checks
 * together (`--nfs` beside `--nfs-v3` is refused, so the second is left empty), so the form as opened is one
 * the command takes back.
 */
export function prefilled(form: FormSpec, name: string, item: unknown, args?: z.ZodObject): FormSpec {
  const shape: Shape = (args?.shape ?? {}) as Shape;
  const kept: Record<string, string | boolean> = { name };
  const passes = () => args === undefined || args.safeParse(kept).success;
  const together = passes();
  return {
    ...form,
    fields: form.fields.map((f) => {
      if (f.key === "name") return { ...f, initial: name };
      if (f.key === "array") return f;
      const initial = initialOf(f, item, shape);
      if (initial === undefined) return f;
      // A switch only turns something on when ticked (an untick sends nothing), so a ticked box would read as
      // "untick to turn off": the current state goes in its hint instead.
      if (typeof initial === "boolean")
        return { ...f, hint: `Now ${initial ? "on" : "off"}.${f.hint ? ` ${f.hint}` : ""}` };
      if (together) {
        kept[f.key] = initial;
        if (!passes()) {
          delete kept[f.key];
          return f;
        }
      }
      return { ...f, initial };
    }),
  };
}
