/**
 * policy create|update|delete. Removing or shortening rules destroys the snapshots those rules made (REST 1.11
 * asks for `destroy_snapshots=true` as the acknowledgement): the impact counts them per file system and the
 * class is remove_snapshot_rules, so the flag only goes on the wire once someone approved. Hand-written because
 * rules are typed as readable text, compared rule by rule with the policy's, and the class and the acknowledgement
 * follow from the snapshots the removed rules own, which generic fields cannot say.
 */
import { z } from "zod";
import { defineCommand, type Impact } from "../../src/core/catalogue/define-command.js";
import { type Field, message, type Rich, rich } from "../../src/core/presentation/message.js";
import { flag, objectName } from "../../src/core/words/arg-types.js";
import { nameWire, wired } from "../../src/core/words/arg-wire.js";
import { countOf } from "../../src/core/words/units.js";
import { UserFacingError } from "../../src/errors.js";
import { eq } from "../../src/flashblade/filter.js";
import { done } from "../shared/done.js";
import { refuseNamed } from "../shared/found.js";
import { itemsOf, planned } from "../shared/plan.js";
import {
  onlyProtectedBy,
  perFileSystem,
  policyFacts,
  policySchema,
  requirePolicyApi,
  rulesOf,
  total,
} from "./read.js";
import { destroyedEstimate, planRuleChange } from "./rule-changes.js";
import { ruleList, rulesText, ruleText, wireRule } from "./rules.js";

const POLICY_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;

export const policyCreate = defineCommand({
  verb: "create",
  summary: "Create a snapshot policy from readable rules",
  examples: [
    'policy create nightly --rules "every 1d at 02:00, keep 7d"',
    'policy create busy --rules "every 1h, keep 1d; every 1d at 00:00, keep 7d" --no-enabled',
  ],
  role: "operator",
  endpoints: ["POST /policies"],
  visibility: "in_channel",
  positional: ["name"],
  args: z.object({
    name: wired(
      objectName("policy name").refine(
        (n) => POLICY_NAME.test(n),
        "a policy name is letters, digits, - and _ (at most 63), starting with a letter or digit",
      ),
      nameWire("policy"),
    ).describe("the new policy"),
    rules: ruleList().describe(
      'rules separated by ";", e.g. "every 1h, keep 1d; every 1d at 02:00, keep 7d"',
    ),
    enabled: flag().describe("--no-enabled creates it paused (it takes no snapshots)"),
  }),
  async impact(a, ctx): Promise<Impact> {
    await requirePolicyApi(ctx);
    const page = await ctx.array.get("/policies", {
      query: { filter: eq("name", a.name) },
      schema: policySchema,
    });
    refuseNamed(page.items, a.name, `A policy named "${a.name}" already exists on ${ctx.arrayName}.`);
    return {
      target: `policy ${a.name}`,
      summary: rich`Creates snapshot policy *${a.name}* on ${ctx.arrayName}: ${rulesText(a.rules)}${a.enabled === false ? " (paused)" : ""}.`,
      facts: [],
      warnings: [],
      state: { exists: false },
      requests: [
        planned(
          "POST",
          "/policies",
          { names: [a.name] },
          { enabled: a.enabled ?? true, rules: a.rules.map(wireRule) },
        ),
      ],
    };
  },
  result(responses, a, ctx, _impact) {
    const [p] = itemsOf(ctx, responses, policySchema);
    return { name: p?.name ?? a.name, rules: p ? rulesText(rulesOf(p)) : rulesText(a.rules) };
  },
  render(r, _a, rctx) {
    const text = `Created policy ${r.name} on ${rctx.arrays[0] ?? "?"}: ${r.rules}. Attach it with /array policy attach ${r.name} <file system>.`;
    return message(
      text,
      [
        {
          type: "section",
          text: rich`Created policy *${r.name}* on ${rctx.arrays[0] ?? "?"}: ${r.rules}. Attach it with \`/array policy attach ${r.name} <file system>\`.`,
        },
      ],
      {
        visibility: "in_channel",
      },
    );
  },
});

export const policyUpdate = defineCommand({
  verb: "update",
  summary: "Change a policy's rules or pause it; removing rules that own snapshots needs approval",
  examples: [
    'policy update daily --remove-rule "every 7d at 03:00 UTC, keep 28d"',
    'policy update daily --rules "every 1d at 02:00, keep 3d"',
    'policy update hourly --add-rule "every 1d at 00:00, keep 7d"',
    "policy update hourly --no-enabled",
  ],
  role: "operator",
  endpoints: ["PATCH /policies"],
  visibility: "in_channel",
  positional: ["name"],
  args: z.object({
    name: objectName("policy name").describe("the policy"),
    rules: ruleList()
      .optional()
      .describe('replace every rule, e.g. "every 1h, keep 1d; every 1d at 02:00, keep 7d"'),
    addRule: ruleList().optional().describe('add rules, e.g. "every 1h, keep 1d"'),
    removeRule: ruleList().optional().describe("remove rules, written as policy show shows them"),
    enabled: flag().describe("--enabled resumes it; --no-enabled pauses it (no new snapshots)"),
  }),
  async impact(a, ctx): Promise<Impact> {
    const f = await policyFacts(ctx, a.name);
    const current = rulesOf(f.policy);
    const { removed, added } = planRuleChange(current, a);
    const enabledNow = f.policy.enabled ?? true;
    const toggles = a.enabled !== undefined && a.enabled !== enabledNow;
    if (removed.length === 0 && added.length === 0 && !toggles) {
      throw new UserFacingError(
        "NOTHING_TO_CHANGE",
        `Nothing to change on policy ${a.name}: ${rulesText(current)}${enabledNow ? "" : " (paused)"}.`,
      );
    }
    const acknowledged = await ctx.array.supports("1.11");
    const owned = total(f.snapshots);
    const atRisk = removed.length > 0 && owned > 0 && acknowledged;
    const kept = current.filter((c) => !removed.includes(c));
    // Snapshot times are the array's; so is "now" where the array says it (1.7+), whatever our clock.
    const arrayNow = removed.length ? ((await ctx.array.arrays.info())._as_of ?? ctx.now()) : ctx.now();
    const est = destroyedEstimate(f.created, f.snapshots, kept, arrayNow);
    const facts: Field[] = [
      { label: "Rules now", value: rich`${rulesText(current)}` },
      { label: "Rules after", value: rich`${rulesText([...kept, ...added])}` },
      {
        label: "Protects",
        value: rich`${[...f.fileSystems, ...f.links.map((l) => `${l.fs} → ${l.remote}`)].join(", ") || "nothing"}`,
      },
    ];
    if (toggles) facts.push({ label: "Enabled", value: rich`${enabledNow ? "yes → no" : "no → yes"}` });
    const warnings: Rich[] = [];
    if (atRisk) {
      facts.push({ label: "Snapshots destroyed", value: rich`${est.text}` });
      const which = removed.length === 1 ? "that rule" : "those rules";
      warnings.push(
        rich`Removing ${removed.map(ruleText).join("; ")} destroys the snapshots ${which} made: ${est.text}.${est.exact ? "" : ` The array does not say which rule made each snapshot: ${est.min} are older than any remaining rule keeps snapshots, so ${which} made them; the others may be from any rule.`} Destroyed snapshots can be recovered until eradicated.`,
      );
    } else if (removed.length > 0 && owned > 0) {
      facts.push({
        label: "Snapshots",
        value: rich`${owned} stay (REST ${await ctx.array.version()} keeps them)`,
      });
    }
    if (a.enabled === false && enabledNow) {
      warnings.push(
        rich`While paused, ${a.name} takes no snapshots of ${f.fileSystems.join(", ") || "its members"}.`,
      );
    }
    const body: Record<string, unknown> = {};
    if (removed.length) body["remove_rules"] = removed.map(wireRule);
    if (added.length) body["add_rules"] = added.map(wireRule);
    if (toggles) body["enabled"] = a.enabled;
    const query = { names: [a.name], ...(atRisk ? { destroy_snapshots: true } : {}) };
    return {
      target: `policy ${a.name}`,
      summary: rich`Changes snapshot policy *${a.name}* on ${ctx.arrayName}${removed.length ? `: removes ${countOf(removed.length, "rule")}` : ""}${added.length ? `${removed.length ? "," : ":"} adds ${countOf(added.length, "rule")}` : ""}${toggles ? (a.enabled ? ", resumes it" : ", pauses it") : ""}.`,
      facts,
      warnings,
      state: {
        rules: rulesText(current),
        enabled: enabledNow,
        owns_snapshots: owned > 0,
      },
      requests: [planned("PATCH", "/policies", query, body)],
    };
  },
  destructive(_a, impact) {
    return impact.requests.some((r) => r.query?.["destroy_snapshots"] === true)
      ? "remove_snapshot_rules"
      : null;
  },
  gateClasses: ["remove_snapshot_rules"],
  result(responses, a, ctx, impact) {
    const [p] = itemsOf(ctx, responses, policySchema);
    return {
      name: a.name,
      rules: p ? rulesText(rulesOf(p)) : "?",
      enabled: p?.enabled ?? true,
      destroyed: impact?.requests.some((r) => r.query?.["destroy_snapshots"] === true) ?? false,
    };
  },
  render(r, _a, rctx) {
    const text = `Updated policy ${r.name} on ${rctx.arrays[0] ?? "?"}: ${r.rules}${r.enabled ? "" : " (paused)"}.`;
    return message(
      text,
      [
        {
          type: "section",
          text: rich`Updated policy *${r.name}* on ${rctx.arrays[0] ?? "?"}: ${r.rules}${r.enabled ? "" : " (paused)"}.`,
        },
        ...(r.destroyed
          ? [
              {
                type: "context" as const,
                text: rich`The snapshots of the removed rules were destroyed; see them with \`/array snapshot list --destroyed\`.`,
              },
            ]
          : []),
      ],
      { visibility: "in_channel" },
    );
  },
});

export const policyDelete = defineCommand({
  verb: "delete",
  summary: "Delete a snapshot policy (what it protects loses that protection)",
  examples: ["policy delete archive-monthly"],
  role: "operator",
  endpoints: ["DELETE /policies"],
  visibility: "in_channel",
  positional: ["name"],
  args: z.object({ name: objectName("policy name").describe("the policy") }),
  async impact(a, ctx): Promise<Impact> {
    const f = await policyFacts(ctx, a.name);
    const bare = await onlyProtectedBy(ctx, f.fileSystems, a.name);
    const warnings: Rich[] = [];
    if (bare.length) {
      warnings.push(rich`${bare.join(", ")} will have no snapshot policy and no replica link left.`);
    }
    return {
      target: `policy ${a.name}`,
      summary: rich`Deletes snapshot policy *${a.name}* on ${ctx.arrayName}; no new snapshots are taken for what it protects.`,
      facts: [
        { label: "Rules", value: rich`${rulesText(rulesOf(f.policy))}` },
        { label: "File systems", value: rich`${f.fileSystems.join(", ") || "none"}` },
        {
          label: "Replica links",
          value: rich`${f.links.map((l) => `${l.fs} → ${l.remote}`).join(", ") || "none"}`,
        },
        {
          label: "Snapshots it manages",
          value: rich`${total(f.snapshots) ? `${total(f.snapshots)} (${perFileSystem(f.snapshots)})` : "none"}`,
        },
      ],
      warnings,
      state: {
        rules: rulesText(rulesOf(f.policy)),
        file_systems: f.fileSystems.join(",") || null,
        replica_links: f.links.length,
      },
      requests: [planned("DELETE", "/policies", { names: [a.name] })],
    };
  },
  destructive: () => "delete",
  gateClasses: ["delete"],
  result(_responses, a, _ctx, _impact) {
    return { name: a.name };
  },
  render(r, _a, rctx) {
    const on = rctx.arrays[0] ?? "?";
    return done(`Deleted policy ${r.name} on ${on}.`, rich`Deleted policy *${r.name}* on ${on}.`);
  },
});
