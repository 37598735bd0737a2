/** Snapshot policies and their rules. */
import { z } from "zod";
import { type FieldGate, gateFields } from "./versioned.js";

export interface PolicyRuleRec {
  every: number;
  keep_for: number;
  at: number | null;
  time_zone: string | null;
}

export interface PolicyRec {
  id: string;
  name: string;
  enabled: boolean;
  rules: PolicyRuleRec[];
  /** Names of member file systems, in the order they were added. */
  members: Set<string>;
}

const DAY_MS = 86_400_000;

export const policyRuleSchema = z
  .strictObject({
    every: z.int().min(60_000),
    keep_for: z.int().min(60_000),
    at: z
      .int()
      .min(0)
      .max(DAY_MS - 1)
      .nullable(),
    time_zone: z.string().min(1).nullable(),
  })
  .partial()
  .required({ every: true, keep_for: true });

export type PolicyRuleBody = z.output<typeof policyRuleSchema>;

export function toRule(b: PolicyRuleBody): PolicyRuleRec {
  return { every: b.every, keep_for: b.keep_for, at: b.at ?? null, time_zone: b.time_zone ?? null };
}

/** Identity of a rule: two rules with the same schedule and retention are the same rule. */
export function ruleKey(r: PolicyRuleRec): string {
  return `${r.every}/${r.keep_for}/${r.at ?? ""}/${r.time_zone ?? ""}`;
}

/** A rule the array would refuse; the message says why. */
export function ruleProblem(r: PolicyRuleRec): string | undefined {
  if (r.keep_for < r.every) return `keep_for (${r.keep_for} ms) must be at least every (${r.every} ms).`;
  if (r.at !== null && r.every % DAY_MS !== 0)
    return "at can only be set when every is a whole number of days.";
  return undefined;
}

const POLICY_GATES: readonly FieldGate[] = [
  ["is_local", "1.9"],
  ["location", "1.9"],
];

export function renderPolicy(
  p: PolicyRec,
  version: string,
  array: { name: string; id: string },
): Record<string, unknown> {
  return gateFields(
    {
      name: p.name,
      id: p.id,
      enabled: p.enabled,
      rules: p.rules.map((r) => ({ ...r })),
      is_local: true,
      location: { name: array.name, id: array.id, resource_type: "arrays" },
    },
    version,
    POLICY_GATES,
  );
}
