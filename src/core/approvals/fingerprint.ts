/**
 * Fingerprints of the array state an impact was computed from. A pending request stores the state and its
 * hash; before it runs, the state is read again and any difference voids the request with a description of
 * what changed.
 */
import { createHash } from "node:crypto";
import type { StateValue } from "../catalogue/define-command.js";
import { formatBytes } from "../words/units.js";

/** Stable JSON: keys sorted, so equal states always hash the same. */
function canonical(state: Record<string, StateValue>): string {
  return JSON.stringify(
    Object.keys(state)
      .sort()
      .map((k) => [k, state[k] ?? null]),
  );
}

export function fingerprintOf(state: Record<string, StateValue>): string {
  return createHash("sha256").update(canonical(state)).digest("hex").slice(0, 32);
}

/** Keys ending in `_bytes` are shown as sizes, flags as yes/no. */
function show(key: string, v: StateValue | undefined): string {
  if (v === undefined || v === null) return "none";
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (typeof v === "number" && key.endsWith("_bytes")) return formatBytes(v);
  return String(v);
}

/** "provisioned: 1 TiB → 1.5 TiB" lines for every key whose value differs. */
export function describeStateChange(
  before: Record<string, StateValue>,
  after: Record<string, StateValue>,
): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys
    .filter((k) => (before[k] ?? null) !== (after[k] ?? null))
    .map(
      (k) => `${k.replace(/_bytes$/, "").replace(/_/g, " ")}: ${show(k, before[k])} → ${show(k, after[k])}`,
    );
}
