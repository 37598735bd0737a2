/**
 * Which characters array object names may hold, one rule per kind of object. The simulator accepts exactly
 * these and the bot refuses, before sending, a name no array would take.
 *
 * What the interface states (storage-array-rest-interface.md) is structure, not an alphabet:
 * - list parameters (`names`, `sources`, …) are comma-separated, so no name holds a comma;
 * - a snapshot is named `<file system>.<suffix>`, so file system names hold no `.`;
 * - object store users are `<account>/<user>` and lifecycle rules `<bucket>/<rule>`, so accounts and buckets
 *   hold no `/`; buckets follow S3's naming (3–63 lowercase letters, digits and hyphens);
 * - maximum lengths: "not shown" (its Limits section). 63 is what the vendor tooling assumes (the reference's
 *   S3 bucket rule) and what the simulator takes for every kind.
 * Control characters are in no rule: a name is a query value, a path in NFS exports and a label people read.
 * Everything else (spaces inside, `<`, `*`, `&`, backticks, non-Latin letters) a file system name may hold,
 * so the bot renders such names harmlessly rather than assume arrays refuse them.
 */

export type NameKind =
  | "file-system"
  | "bucket"
  | "account"
  | "object-user"
  | "policy"
  | "snapshot-suffix"
  | "any";

export interface NameRule {
  readonly pattern: RegExp;
  /** What the rule allows, in words for an error message. */
  readonly says: string;
}

export const NAME_RULES: Readonly<Record<NameKind, NameRule>> = {
  "file-system": {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
    pattern: /^[^,/.\s\u0000-\u001f\u007f][^,/.\u0000-\u001f\u007f]{0,62}$/,
    says: "1-63 characters without ',', '/', '.' or control characters, not starting with a blank",
  },
  bucket: {
    pattern: /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/,
    says: "3-63 lowercase letters, digits and '-', starting and ending with a letter or digit",
  },
  account: {
    pattern: /^[A-Za-z0-9][A-Za-z0-9-]{0,62}$/,
    says: "1-63 letters, digits and '-', starting with a letter or digit",
  },
  "object-user": {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
    pattern: /^[^,/\u0000-\u001f\u007f]{1,63}\/[^,/\u0000-\u001f\u007f]{1,63}$/,
    says: "<account>/<user>, e.g. analytics/etl",
  },
  policy: {
    pattern: /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/,
    says: "1-63 letters, digits, '-' and '_', starting with a letter or digit",
  },
  "snapshot-suffix": {
    pattern: /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/,
    says: "1-63 letters, digits, '-' and '_', starting with a letter or digit",
  },
  any: {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
    pattern: /^[^,\u0000-\u001f\u007f]{1,63}$/,
    says: "1-63 characters without ',' or control characters",
  },
};

/** Why no array of this kind takes `name`, or undefined when one would. */
export function nameProblem(name: string, kind: NameKind = "any"): string | undefined {
  const rule = NAME_RULES[kind];
  return rule.pattern.test(name) ? undefined : rule.says;
}
