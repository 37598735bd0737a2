/**
 * Version gating of model fields: a field is emitted (and accepted in bodies) only by the REST versions whose
 * model has it, per ../shared/reference/flashblade-models.md.
 */
import { atLeast, compareVersions } from "../../rest-spec/versions.js";

/** `[field, since]` or `[field, since, lastVersion]` for fields later removed. */
export type FieldGate = readonly [field: string, since: string, until?: string];

export function hasField(version: string, since: string, until?: string): boolean {
  return atLeast(version, since) && (until === undefined || compareVersions(version, until) <= 0);
}

const missingCache = new Map<readonly FieldGate[], Map<string, ReadonlySet<string>>>();

/** Names of the gated fields a version lacks (cached: the gate tables are module constants). */
export function missingFields(version: string, gates: readonly FieldGate[]): ReadonlySet<string> {
  let byVersion = missingCache.get(gates);
  if (!byVersion) {
    byVersion = new Map();
    missingCache.set(gates, byVersion);
  }
  let out = byVersion.get(version);
  if (!out) {
    const set = new Set<string>();
    for (const [field, since, until] of gates) if (!hasField(version, since, until)) set.add(field);
    out = set;
    byVersion.set(version, out);
  }
  return out;
}

/**
 * `item` without the fields its version does not have. Fields without a gate are kept: the gates list only the
 * fields that appeared (or went) after the model's first version. Builds a new object rather than deleting,
 * which keeps large listings fast.
 */
export function gateFields<T extends Record<string, unknown>>(
  item: T,
  version: string,
  gates: readonly FieldGate[],
): Partial<T> {
  const missing = missingFields(version, gates);
  if (missing.size === 0) return item;
  const out: Record<string, unknown> = {};
  for (const key in item) if (!missing.has(key)) out[key] = item[key];
  return out as Partial<T>;
}
