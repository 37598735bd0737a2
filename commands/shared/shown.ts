/**
 * Structured results (docs/mcp.md): a `show` answer's object and a list's raw values, built beside the text
 * people read. One fact is written once, as its key and raw value (for faces that carry data: sizes in bytes,
 * times ISO 8601, lists as arrays) and its label and text (for people), so the two cannot drift apart.
 */
import type { Field, RawValue, ShownObject } from "../../src/core/presentation/message.js";
import { rich } from "../../src/core/presentation/message.js";

/** One fact: its key and raw value, its label and text. */
export type Fact = [key: string, label: string, raw: RawValue, text: string];

/** A time in milliseconds as ISO 8601 (UTC), null when the array did not give it. */
export const isoTime = (ms: number | null | undefined): string | null =>
  ms === undefined || ms === null ? null : new Date(ms).toISOString();

/** The object a `show` is about: its name, and each fact's raw value and text under the fact's key. */
export function shownObject(
  name: string,
  facts: readonly Fact[],
  extra: Readonly<Record<string, RawValue>> = {},
): ShownObject {
  const values: Record<string, RawValue> = { name, ...extra };
  const display: Record<string, string> = { name };
  for (const [key, , raw, text] of facts) {
    values[key] = raw;
    display[key] = text;
  }
  return { name, values, display };
}

/** The facts as the fields people read. */
export const factFields = (facts: readonly Fact[]): Field[] =>
  facts.map(([, label, , text]) => ({ label, value: rich`${text}` }));
