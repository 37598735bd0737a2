/**
 * Secret fields of the generic create and update verbs (an AD account's password, a directory's bind password,
 * an SNMP community): their option is a flag, the pipeline asks the requester for the value in a private dialog
 * (the command's `secrets`), and the value fills its placeholder in the planned request only as the pipeline sends it, in memory. The card and
 * --dry-run show a placeholder where it goes; the args, the pending record and the audit hold `true` at most.
 */
import type { SecretField } from "../../../src/core/context/pipeline-types.js";
import { InternalError, UserFacingError } from "../../../src/errors.js";
import { fileBytes } from "../../../src/rest-spec/form-data.js";
import type { Args } from "./common.js";
import type { VerbPlan } from "./derive.js";
import type { FieldDef } from "./fields.js";
import { labelOf } from "./values.js";

export const SECRET_PLACEHOLDER = "(typed in a private dialog)";

/**
 * The secrets a run asks for: those whose flag was given, on create those the array requires, and those the
 * values typed make necessary (the spec's `secretWhen`: `--version v2c` needs the community).
 */
export function askedSecrets(p: VerbPlan, args: Args): FieldDef[] {
  const keyOf = (path: string) => p.fields.find((f) => f.path.join(".") === path)?.key;
  const implied = (f: FieldDef) =>
    Object.entries(p.spec.secretWhen?.[f.path.join(".")] ?? {}).some(([path, value]) => {
      const key = keyOf(path);
      return key !== undefined && args[key] === value;
    });
  return p.fields.filter(
    (f) =>
      f.secret &&
      (f.file === true ||
        args[f.key] === true ||
        (p.kind === "create" && f.model.required === true) ||
        implied(f)),
  );
}

export function secretPrompts(p: VerbPlan, args: Args): SecretField[] {
  return askedSecrets(p, args).map((f) => ({
    key: f.key,
    label: labelOf(f.path.join(".")),
    ...(f.path.at(-1) === "private_key" || f.file ? { multiline: true } : {}),
    ...(f.file ? { file: true } : {}),
  }));
}

function setAt(body: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let at = body;
  for (const p of path.slice(0, -1)) {
    const next = at[p];
    at[p] = next && typeof next === "object" ? next : {};
    at = at[p] as Record<string, unknown>;
  }
  at[path.at(-1) as string] = value;
}

/**
 * The placeholder of one asked secret: the plain one when it is the only secret, else one naming its field, so
 * every placeholder stands for exactly one value.
 */
export function placeholderOf(f: FieldDef, asked: readonly FieldDef[]): string {
  if (f.file) return `<file, ${SECRET_PLACEHOLDER.slice(1, -1)}>`;
  return asked.length === 1
    ? SECRET_PLACEHOLDER
    : `(${labelOf(f.path.join("."))}, typed in a private dialog)`;
}

/** The planned body with a placeholder where each asked secret goes; returns the placeholders. */
export function withPlaceholders(body: Record<string, unknown>, asked: readonly FieldDef[]): string[] {
  for (const f of asked) setAt(body, f.path, placeholderOf(f, asked));
  return asked.map((f) => placeholderOf(f, asked));
}

/** The typed secrets by their placeholders, for the pipeline to fill the planned request with (in memory only). */
export function secretValues(
  asked: readonly FieldDef[],
  secrets: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of asked) {
    const value = secrets?.[f.key];
    if (value === undefined)
      throw new InternalError("SECRET_MISSING", `--${f.option} ran without its secret`);
    // A file is typed as base64 (`base64 -w0 nfs.keytab`); the client sends its bytes as a form-data part.
    if (f.file && fileBytes(value) === undefined)
      throw new UserFacingError(
        "SECRET_MALFORMED",
        `The ${labelOf(f.path.join(".")).toLowerCase()} you typed is not base64 (make it with \`base64 -w0 <file>\`). Nothing was sent: run the command again.`,
      );
    out[placeholderOf(f, asked)] = value;
  }
  return out;
}
