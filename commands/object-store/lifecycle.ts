/**
 * `lifecycle list|create|update|delete` (REST 1.10+): how long a bucket keeps previous object versions. From
 * 1.12 a rule is selected by its id together with `bucket_names` (names `bucket/rule_id` before), so the
 * selector follows the array's version. Hand-written because the selector that changes with the version, the
 * refusal of an existing rule id and the warning when a shorter keep deletes versions are beyond the generic verbs.
 */
import { z } from "zod";
import { type CommandContext, defineCommand, type Impact } from "../../src/core/catalogue/define-command.js";
import { rich } from "../../src/core/presentation/message.js";
import { duration, objectName } from "../../src/core/words/arg-types.js";
import { formatDuration } from "../../src/core/words/units.js";
import { UserFacingError } from "../../src/errors.js";
import type { Query } from "../../src/flashblade/types.js";
import { requireApi } from "../../src/flashblade/wire.js";
import { done } from "../shared/done.js";
import { rowsListed } from "../shared/listing.js";
import { itemsOf, planned } from "../shared/plan.js";

const PATH = "/lifecycle-rules";
const ruleSchema = z.looseObject({
  id: z.string().nullish(),
  name: z.string().nullish(),
  rule_id: z.string().nullish(),
  enabled: z.boolean().nullish(),
  keep_previous_version_for: z.number().nullish(),
  prefix: z.string().nullish(),
  bucket: z.looseObject({ name: z.string().nullish() }).nullish(),
});
type Rule = z.output<typeof ruleSchema>;

async function requireLifecycleApi(ctx: CommandContext): Promise<void> {
  await requireApi(ctx, "1.10", "The lifecycle rule API");
}

async function rulesOf(ctx: CommandContext, bucket?: string): Promise<Rule[]> {
  await requireLifecycleApi(ctx);
  const out: Rule[] = [];
  for await (const r of ctx.array.iterate(PATH, { schema: ruleSchema })) {
    if (bucket === undefined || r.bucket?.name === bucket) out.push(r);
  }
  return out;
}

/** The rule and the query that selects it: ids with bucket_names from 1.12, names `bucket/rule_id` before. */
async function selectRule(
  ctx: CommandContext,
  bucket: string,
  ruleId: string,
): Promise<{ rule: Rule; query: Query }> {
  const rules = await rulesOf(ctx, bucket);
  const rule = rules.find((r) => r.rule_id === ruleId);
  if (!rule) {
    throw new UserFacingError(
      "NOT_FOUND",
      `Bucket ${bucket} has no lifecycle rule ${ruleId} on ${ctx.arrayName}${rules.length ? ` (it has ${rules.map((r) => r.rule_id).join(", ")})` : ""}.`,
    );
  }
  const byId = (await ctx.array.supports("1.12")) && rule.id;
  const query: Query = byId
    ? { ids: [rule.id as string], bucket_names: [bucket] }
    : { names: [`${bucket}/${ruleId}`] };
  return { rule, query };
}

const keepText = (r: Rule) => formatDuration(r.keep_previous_version_for ?? 0);

export const lifecycleList = defineCommand({
  verb: "list",
  summary: "Lifecycle rules: how long each bucket keeps previous object versions",
  examples: ["lifecycle-rule list", "lifecycle-rule list analytics-raw"],
  role: "viewer",
  endpoints: ["GET /lifecycle-rules"],
  positional: ["bucket"],
  args: z.object({ bucket: objectName("bucket name").optional().describe("only this bucket's rules") }),
  async run(a, ctx) {
    return (await rulesOf(ctx, a.bucket)).map((r) => ({ array: ctx.arrayName, r }));
  },
  ...rowsListed(
    ({ r }: { array: string; r: Rule }) => ({
      bucket: r.bucket?.name ?? "?",
      rule: r.rule_id ?? "?",
      prefix: r.prefix || "(all objects)",
      keep: keepText(r),
      enabled: r.enabled === false ? "no" : "yes",
    }),
    (a: { bucket?: string | undefined }) => ({
      noun: "lifecycle rule",
      scope: a.bucket && `for ${a.bucket}`,
      columns: {
        bucket: "Bucket",
        rule: "Rule",
        prefix: "Prefix",
        keep: "Keeps previous versions",
        enabled: "Enabled",
      },
    }),
    ({ r }: { array: string; r: Rule }) => ({
      bucket: r.bucket?.name ?? null,
      rule: r.rule_id ?? null,
      prefix: r.prefix ?? null,
      keep: r.keep_previous_version_for ?? null,
      enabled: r.enabled !== false,
    }),
  ),
});

export const lifecycleCreate = defineCommand({
  verb: "create",
  summary: "Keep a bucket's previous object versions for a while, then delete them",
  examples: [
    "lifecycle-rule create analytics-raw --keep 30d",
    "lifecycle-rule create analytics-raw --keep 7d --prefix staging/ --rule staging-cleanup",
  ],
  role: "operator",
  endpoints: ["POST /lifecycle-rules"],
  visibility: "in_channel",
  positional: ["bucket"],
  args: z.object({
    bucket: objectName("bucket name").describe("the bucket"),
    keep: duration().describe("how long previous versions are kept, e.g. 30d"),
    prefix: z.string().max(1024).optional().describe("only objects whose key starts with this"),
    rule: objectName("rule id").optional().describe("the rule's id (default: the array picks one)"),
  }),
  async impact(a, ctx): Promise<Impact> {
    const existing = await rulesOf(ctx, a.bucket);
    if (a.rule !== undefined && existing.some((r) => r.rule_id === a.rule)) {
      throw new UserFacingError(
        "ALREADY_EXISTS",
        `Bucket ${a.bucket} already has a lifecycle rule ${a.rule}. Nothing was changed.`,
      );
    }
    const body = {
      bucket: { name: a.bucket },
      keep_previous_version_for: a.keep,
      ...(a.prefix === undefined ? {} : { prefix: a.prefix }),
      ...(a.rule === undefined ? {} : { rule_id: a.rule }),
    };
    return {
      target: `lifecycle rule on ${a.bucket}`,
      summary: rich`Keeps previous versions of ${a.prefix ? `objects under ${a.prefix}` : "all objects"} in *${a.bucket}* for ${formatDuration(a.keep)}, then deletes them.`,
      facts: [],
      warnings: [
        rich`Previous versions older than ${formatDuration(a.keep)} are deleted by the array from then on.`,
      ],
      state: { rules: existing.length },
      requests: [planned("POST", PATH, {}, body)],
    };
  },
  result(responses, a, ctx, _impact) {
    const [made] = itemsOf(ctx, responses, ruleSchema);
    return { bucket: a.bucket, rule: made?.rule_id ?? a.rule ?? "?" };
  },
  render: (r, _a, rctx) =>
    done(`Created lifecycle rule ${r.rule} on ${r.bucket} (${rctx.arrays[0] ?? "?"}).`),
});

const ruleArgs = z.object({
  bucket: objectName("bucket name").describe("the bucket"),
  rule: objectName("rule id").describe("the rule's id"),
});

export const lifecycleUpdate = defineCommand({
  verb: "update",
  summary: "Change how long a lifecycle rule keeps previous versions, its prefix, or turn it on or off",
  examples: [
    "lifecycle-rule update analytics-raw expire-old-versions --keep 60d",
    "lifecycle-rule update logs-archive fbRule1 --enabled",
  ],
  role: "operator",
  endpoints: ["PATCH /lifecycle-rules"],
  visibility: "in_channel",
  positional: ["bucket", "rule"],
  args: ruleArgs.extend({
    keep: duration().optional().describe("how long previous versions are kept"),
    prefix: z.string().max(1024).optional().describe("only objects whose key starts with this"),
    enabled: z.boolean().optional().describe("turn the rule on (--enabled) or off (--no-enabled)"),
  }),
  async impact(a, ctx): Promise<Impact> {
    const { rule, query } = await selectRule(ctx, a.bucket, a.rule);
    const body = {
      ...(a.keep === undefined ? {} : { keep_previous_version_for: a.keep }),
      ...(a.prefix === undefined ? {} : { prefix: a.prefix }),
      ...(a.enabled === undefined ? {} : { enabled: a.enabled }),
    };
    if (Object.keys(body).length === 0) {
      throw new UserFacingError(
        "NO_CHANGE",
        "Say what to change: --keep, --prefix, --enabled or --no-enabled.",
      );
    }
    const shorter = a.keep !== undefined && a.keep < (rule.keep_previous_version_for ?? 0);
    return {
      target: `lifecycle rule ${a.bucket}/${a.rule}`,
      summary: rich`Changes lifecycle rule ${a.rule} of *${a.bucket}*${a.keep === undefined ? "" : `: keeps previous versions ${keepText(rule)} → ${formatDuration(a.keep)}`}.`,
      facts: [],
      warnings: shorter
        ? [
            rich`Previous versions between ${formatDuration(a.keep ?? 0)} and ${keepText(rule)} old are deleted at the array's next pass.`,
          ]
        : [],
      state: { keep: rule.keep_previous_version_for ?? null, enabled: rule.enabled ?? null },
      requests: [planned("PATCH", PATH, query, body)],
    };
  },
  result(_responses, _a, _ctx, impact) {
    return impact?.target ?? "";
  },
  render: (target, _a, rctx) => done(`Updated ${target} on ${rctx.arrays[0] ?? "?"}.`),
});

export const lifecycleDelete = defineCommand({
  verb: "delete",
  summary: "Delete a lifecycle rule (previous versions are then kept until deleted by hand); gated",
  examples: ["lifecycle-rule delete analytics-raw tmp-cleanup"],
  role: "operator",
  endpoints: ["DELETE /lifecycle-rules"],
  visibility: "in_channel",
  positional: ["bucket", "rule"],
  args: ruleArgs,
  async impact(a, ctx): Promise<Impact> {
    const { rule, query } = await selectRule(ctx, a.bucket, a.rule);
    return {
      target: `lifecycle rule ${a.bucket}/${a.rule}`,
      summary: rich`Deletes lifecycle rule ${a.rule} of *${a.bucket}* (keeps previous versions ${keepText(rule)}).`,
      facts: [],
      warnings: [
        rich`Previous versions of ${rule.prefix ? `objects under ${rule.prefix}` : "all objects"} then pile up until deleted by hand.`,
      ],
      state: { keep: rule.keep_previous_version_for ?? null },
      requests: [planned("DELETE", PATH, query)],
    };
  },
  destructive: () => "delete",
  gateClasses: ["delete"],
  result(_responses, _a, _ctx, impact) {
    return impact?.target ?? "";
  },
  render: (target, _a, rctx) => done(`Deleted ${target} on ${rctx.arrays[0] ?? "?"}.`),
});
