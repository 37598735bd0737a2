/**
 * Which change-control data applies to a change: the most specific approval rule that matches it, the freeze
 * window in force over it, membership of a rule's people. Pure functions over the configuration (issue 45).
 */
import type { ApprovalRule, ArraysSelector, FreezeWindow, RuleMembers } from "../../config/change-control.js";

export interface ArrayFacts {
  name: string;
  tags: readonly string[];
}

/** What a rule is matched on. */
export interface ChangeFacts {
  /** The change's class of harm, when it has one. */
  cls?: string | undefined;
  /** The command as typed: `fs destroy`. */
  path: string;
  array: ArrayFacts;
  /** The requester's Slack user groups. */
  groups: readonly string[];
}

/** `tag:prod`, a name, or a list of names; absent matches every array. */
export function arraysMatch(sel: ArraysSelector | readonly string[] | undefined, array: ArrayFacts): boolean {
  if (sel === undefined) return true;
  const items = typeof sel === "string" ? [sel] : sel;
  return items.some((s) => (s.startsWith("tag:") ? array.tags.includes(s.slice(4)) : s === array.name));
}

export interface MatchedRule {
  rule: ApprovalRule;
  /** `prod-eradicate`, or `approvals.rules[2]` for a rule without a name. */
  label: string;
}

/**
 * The rule for a change: among those whose every condition holds, the one with the most conditions (a rule that
 * names the class, the arrays and the groups beats one that names the class alone); the first of equals wins.
 */
export function matchRule(rules: readonly ApprovalRule[], facts: ChangeFacts): MatchedRule | undefined {
  let best: { rule: ApprovalRule; index: number; score: number } | undefined;
  rules.forEach((rule, index) => {
    const m = rule.match;
    const holds =
      (m.classes === undefined || (facts.cls !== undefined && m.classes.includes(facts.cls))) &&
      (m.commands === undefined || m.commands.includes(facts.path)) &&
      arraysMatch(m.arrays, facts.array) &&
      (m.groups === undefined || m.groups.some((g) => facts.groups.includes(g)));
    if (!holds) return;
    const score = [m.classes, m.commands, m.arrays, m.groups].filter((x) => x !== undefined).length;
    if (!best || score > best.score) best = { rule, index, score };
  });
  return best && { rule: best.rule, label: best.rule.name ?? `approvals.rules[${best.index}]` };
}

/** True when the person is one of the members by id or by one of their groups. */
export function isMember(m: RuleMembers | undefined, userId: string, groups: readonly string[]): boolean {
  if (!m) return false;
  return m.users.includes(userId) || m.groups.some((g) => groups.includes(g));
}

/** "the group S0STORLEADS, U04DAVE": who a rule's members are, for a card. */
export function describeMembers(m: RuleMembers): string {
  const groups = m.groups.map((g) => `<!subteam^${g}>`);
  const users = m.users.map((u) => (/^[UW][A-Z0-9]+$/.test(u) ? `<@${u}>` : u));
  return [...groups, ...users].join(", ") || "nobody";
}

/** The freeze window in force over a change now, if any: its arrays and classes cover it. */
export function activeFreeze(
  windows: readonly FreezeWindow[],
  now: number,
  array: ArrayFacts,
  cls: string | undefined,
): FreezeWindow | undefined {
  return windows.find(
    (w) =>
      now >= Date.parse(w.from) &&
      now < Date.parse(w.to) &&
      arraysMatch(w.arrays, array) &&
      (w.classes === "all" || (cls !== undefined && w.classes.includes(cls))),
  );
}
