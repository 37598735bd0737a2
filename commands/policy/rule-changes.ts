/**
 * The arithmetic of a policy update, apart from the array: which rules it removes and adds, and how many of the
 * policy's snapshots the removed rules made.
 */
import { countOf } from "../../src/core/words/units.js";
import { UserFacingError } from "../../src/errors.js";
import { type Rule, rulesText, ruleText, sameRule } from "./rules.js";

/** What an update changes: the rules it removes (as the array has them) and adds. */
export function planRuleChange(
  current: Rule[],
  a: { rules?: Rule[]; addRule?: Rule[]; removeRule?: Rule[] },
): { removed: Rule[]; added: Rule[] } {
  if (a.rules && (a.addRule || a.removeRule)) {
    throw new UserFacingError(
      "INVALID_ARGUMENTS",
      "--rules replaces every rule; use it alone, or use --add-rule / --remove-rule.",
    );
  }
  if (a.rules) {
    const next = a.rules;
    return {
      removed: current.filter((c) => !next.some((n) => sameRule(c, n))),
      added: next.filter((n) => !current.some((c) => sameRule(c, n))),
    };
  }
  const removed: Rule[] = [];
  for (const r of a.removeRule ?? []) {
    const found = current.find((c) => sameRule(c, r));
    if (!found) {
      throw new UserFacingError(
        "RULE_NOT_FOUND",
        `The policy has no rule "${ruleText(r)}". Its rules: ${rulesText(current)}.`,
      );
    }
    removed.push(found);
  }
  const added = a.addRule ?? [];
  const dup = added.find((r) => current.some((c) => sameRule(c, r)));
  if (dup) throw new UserFacingError("RULE_EXISTS", `The policy already has the rule "${ruleText(dup)}".`);
  return { removed, added };
}

/**
 * How many of the policy's snapshots the removed rules made. Snapshots older than the longest retention of the
 * rules that stay can only be the removed rules'; the rest may be either, so the answer is a range unless every
 * rule goes.
 */
export function destroyedEstimate(
  created: Map<string, number[]>,
  counts: Map<string, number>,
  kept: readonly Rule[],
  now: number,
): { min: number; max: number; exact: boolean; text: string } {
  const keep = kept.length ? Math.max(...kept.map((r) => r.keep_for)) : undefined;
  const per = [...counts.entries()]
    .map(([fs, max]) => {
      const min = keep === undefined ? max : (created.get(fs) ?? []).filter((t) => now - t > keep).length;
      return { fs, min, max };
    })
    .sort((a, b) => b.max - a.max || a.fs.localeCompare(b.fs));
  const min = per.reduce((n, p) => n + p.min, 0);
  const max = per.reduce((n, p) => n + p.max, 0);
  const exact = min === max;
  const range = (lo: number, hi: number) => (lo === hi ? `${hi}` : `${lo}–${hi}`);
  const detail = per.map((p) => `${p.fs} ${range(p.min, p.max)}`).join(", ");
  const text = exact
    ? `${countOf(max, "snapshot")} (${detail})`
    : `between ${min} and ${countOf(max, "snapshot")} (${detail})`;
  return { min, max, exact, text };
}
