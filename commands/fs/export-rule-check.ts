/**
 * The impact of a change to an NFS export policy's rules (REST 2.x `/nfs-export-policies/rules`): the clients it
 * lets mount that could not before, the ones it shuts out, and those whose access changes, computed the way the
 * array decides (rules in index order, first match wins). Catalogue data names it, `precheck:
 * NFS_EXPORT_RULE_CHECKS`, so a generic noun over that path gets it without code of its own.
 */

import type { CommandContext } from "../../src/core/catalogue/define-command.js";
import { type Field, rich } from "../../src/core/presentation/message.js";
import { UserFacingError } from "../../src/errors.js";
import type { Precheck, PrecheckOn, VerbName } from "../catalogue/spec.js";
import { asRule, clientChanges, type ExportRule, ruleText } from "./exports.js";

interface RuleItem {
  name?: string;
  index?: number;
  client?: string;
  permission?: string;
  access?: string;
  policy?: { name?: string };
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** The policy a change is about: the rule's own (update, delete), else the selector or option naming it (create). */
function policyOf(on: PrecheckOn): string {
  const own = (on.item?.["policy"] as { name?: string } | undefined)?.name;
  const a = on.args;
  return str(own) ?? str(a["policyNames"]) ?? str(a["policyName"]) ?? str(a["policy"]) ?? on.name;
}

async function rulesOf(ctx: CommandContext, policy: string): Promise<RuleItem[]> {
  const out: RuleItem[] = [];
  for await (const r of ctx.array.iterate<RuleItem>("/nfs-export-policies/rules", {
    query: { policy_names: policy },
  }))
    if (r.policy?.name === policy) out.push(r);
  return out.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
}

/** The rule as the change leaves it: the given options over what the rule was (update) or the array's defaults. */
function changed(was: RuleItem | undefined, args: Readonly<Record<string, unknown>>): RuleItem {
  return {
    ...was,
    ...(str(args["client"]) ? { client: str(args["client"]) } : {}),
    ...(str(args["permission"]) ? { permission: str(args["permission"]) } : {}),
    ...(str(args["access"]) ? { access: str(args["access"]) } : {}),
    ...(typeof args["index"] === "number" ? { index: args["index"] } : {}),
  };
}

/** `rule` placed at its index (1 = first) among `others`, or last without one. */
function placed(others: readonly RuleItem[], rule: RuleItem): RuleItem[] {
  const at = rule.index === undefined ? others.length : Math.max(0, Math.min(others.length, rule.index - 1));
  return [...others.slice(0, at), rule, ...others.slice(at)];
}

function view(policy: string, before: readonly ExportRule[], after: readonly ExportRule[]) {
  const { added, dropped, changed: access } = clientChanges(before, after);
  const facts: Field[] = [
    { label: "Clients added", value: rich`${added.length ? added.join(", ") : "none"}` },
    { label: "Clients dropped", value: rich`${dropped.length ? dropped.join(", ") : "none"}` },
    ...(access.length ? [{ label: "Access changed", value: rich`${access.join("; ")}` }] : []),
    { label: "Rules after", value: rich`${after.map(ruleText).join(" ") || "none: no client may mount"}` },
  ];
  const warnings = dropped.length
    ? [
        rich`Clients of export policy ${policy} lose access: ${dropped.join(", ")}. Their mounts fail at the next access.`,
      ]
    : [];
  // The rules the card was computed from: a change to the policy before the click voids an approval.
  return { facts, warnings, state: { export_rules: before.map(ruleText).join(" ") } };
}

const check =
  (kind: "create" | "update" | "delete"): Precheck =>
  async (ctx, on) => {
    const policy = policyOf(on);
    const rules = await rulesOf(ctx, policy);
    const before = rules.map(asRule);
    const name = str(on.item?.["name"]) ?? on.name;
    const others = rules.filter((r) => r.name !== name);
    const own = rules.find((r) => r.name === name);
    if (kind !== "create" && !own)
      throw new UserFacingError(
        "RULE_NOT_FOUND",
        `Export policy ${policy} on ${ctx.arrayName} has no rule ${name}. Nothing was changed.`,
      );
    let after: RuleItem[];
    if (kind === "delete") after = others;
    else if (kind === "create") after = placed(rules, changed(undefined, on.args));
    else {
      const next = changed(own, on.args);
      // An update that gives no index keeps the rule in its place; one that does moves it there.
      after =
        typeof on.args["index"] === "number"
          ? placed(others, next)
          : rules.map((r) => (r === own ? next : r));
    }
    return view(policy, before, after.map(asRule));
  };

/** The checks per generic verb of an export-rule noun: `precheck: NFS_EXPORT_RULE_CHECKS`. */
export const NFS_EXPORT_RULE_CHECKS: Readonly<Partial<Record<VerbName, Precheck>>> = {
  create: check("create"),
  update: check("update"),
  delete: check("delete"),
};
