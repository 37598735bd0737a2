/**
 * Version gating of model fields: a field is emitted (and accepted in bodies) only by the REST versions whose
 * model has it, per ../shared/reference/flashblade-models.md.
 */
import { atLeast, compareVersions } from "../../flashblade/versions.js";

/** `[field, since]` or `[field, since, lastVersion]` for fields later removed. */
export type FieldGate = readonly [field: string, since: string, until?: string];

export function hasField(version: string, since: string, until?: string): boolean {
  return atLeast(version, since) && (until === undefined || compareVersions(version, until) <= 0);
}

/**
 * Removes from `item` the fields its version does not have. Fields without a gate are kept: the gates list only
 * the fields that appeared (or went) after the model's first version.
 */
export function gateFields<T extends Record<string, unknown>>(
  item: T,
  version: string,
  gates: readonly FieldGate[],
): Partial<T> {
  for (const [field, since, until] of gates) {
    if (!hasField(version, since, until)) delete item[field];
  }
  return item;
}

/** Names of the gated fields a version lacks, to reject them in request bodies with a clear message. */
export function missingFields(version: string, gates: readonly FieldGate[]): Set<string> {
  const out = new Set<string>();
  for (const [field, since, until] of gates) if (!hasField(version, since, until)) out.add(field);
  return out;
}
