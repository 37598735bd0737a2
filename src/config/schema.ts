/**
 * The configuration file's schema: one strict object composed of section schemas (add a section by adding a
 * key to `configSections`). Cross-references (array names in access rules and channel bindings) are checked
 * at the root so every problem is reported in one pass.
 */
import { z } from "zod";
import type { DestructiveClass } from "../vocabulary.js";
import { parseDuration, ROLES } from "../vocabulary.js";
import { alertsConfigSchema, storeConfigSchema, unknownAlertSelectors } from "./alerts.js";
import { arrayPoolSchema, DEFAULT_ARRAY_POOL } from "./array-pool.js";
import { arraysConfigSchema } from "./arrays.js";
import { auditExportSchema } from "./audit-export.js";
import { changeControlIssues, changeControlSections } from "./change-control.js";
import { DEFAULT_LIMITS, limitsConfigSchema } from "./limits.js";
import { mcpConfigSchema } from "./mcp.js";
import { workflowStepsSchema } from "./workflows.js";

const slackId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._-]+$/, "use the Slack ID (U…, W…, S…, C…), not a name or @handle");

/** A channel the bot posts in: its ID, because names change and the API wants IDs. */
const channelId = z
  .string()
  .regex(/^[CG][A-Z0-9]+$/, "use the channel ID (C…, from the channel's details), not its #name");

const roleSchema = z.enum(ROLES);

const membersSchema = z.strictObject({
  users: z.array(slackId).default([]),
  groups: z.array(slackId).default([]),
});
export type Members = z.output<typeof membersSchema>;

const roleBindingShape = {
  admin: membersSchema.optional(),
  operator: membersSchema.optional(),
  viewer: membersSchema.optional(),
};

const overrideSchema = z
  .strictObject({
    arrays: z.array(z.string().min(1)).optional(),
    tags: z.array(z.string().min(1)).optional(),
    ...roleBindingShape,
  })
  .refine((o) => (o.arrays === undefined) !== (o.tags === undefined), {
    message: "an override names either arrays or tags (exactly one of them)",
  });

export const accessSchema = z.strictObject({
  /** "none": users with no mapping are denied. "viewer": everyone may look. */
  default_role: z.enum(["none", "viewer"]).default("none"),
  ...roleBindingShape,
  /** Roles that apply only on some arrays; an array-name override beats a tag override beats the global map. */
  overrides: z.array(overrideSchema).default([]),
});
export type AccessConfig = z.output<typeof accessSchema>;

const bindingSchema = z.strictObject({
  /** Array names, "tag:<tag>" or "all". */
  arrays: z.array(z.string().min(1)).min(1),
  default_array: z.string().min(1).optional(),
  /** Whether `--public` may answer lookups in this channel; the top-level setting when absent. */
  public_answers: z.boolean().optional(),
});

export const channelsSchema = z.strictObject({
  /** Used when a channel has no default of its own and no --array is given. */
  default_array: z.string().min(1).optional(),
  /** What channels without a binding may target. */
  unbound: z.enum(["all", "none"]).default("all"),
  /** Whether `--public` may post a lookup's answer in the channel (each binding may say otherwise). */
  public_answers: z.boolean().default(true),
  bindings: z.record(slackId, bindingSchema).default({}),
});
export type ChannelsConfig = z.output<typeof channelsSchema>;

const durationText = z.string().transform((v, ctx) => {
  const ms = parseDuration(v);
  if (ms === undefined) {
    ctx.addIssue({ code: "custom", message: `"${v}" is not a duration; write e.g. 15m, 1h` });
    return z.NEVER;
  }
  return ms;
});

export type GatePolicy =
  | { policy: "confirm" }
  | { policy: "deny" }
  | { policy: "approve"; approvers: number; approver_role: (typeof ROLES)[number] };

const policySchema = z.union([
  z.enum(["confirm", "deny"]).transform((p): GatePolicy => ({ policy: p })),
  z
    .literal("approve")
    .transform((): GatePolicy => ({ policy: "approve", approvers: 1, approver_role: "operator" })),
  z.strictObject({ policy: z.enum(["confirm", "deny"]) }),
  z.strictObject({
    policy: z.literal("approve"),
    approvers: z.int().min(1).max(5).default(1),
    approver_role: roleSchema.default("operator"),
  }),
]);

const confirm: GatePolicy = { policy: "confirm" };

export const destructiveSchema = z.strictObject({
  /** How long a request waits for its confirmation or approvals. */
  expiry: durationText.default(15 * 60_000),
  /** Approval requests are also posted here (besides the requester's channel); every copy is kept up to date. */
  approvals_channel: channelId.optional(),
  eradicate: policySchema.default({ policy: "approve", approvers: 1, approver_role: "admin" }),
  shrink_below_usage: policySchema.default({ policy: "approve", approvers: 1, approver_role: "operator" }),
  destroy: policySchema.default(confirm),
  delete: policySchema.default(confirm),
  /** A user or group quota set below what that user or group already stores: their writes fail at once. */
  quota_below_usage: policySchema.default(confirm),
  /** Removing or shortening policy rules destroys the snapshots those rules made. */
  remove_snapshot_rules: policySchema.default({ policy: "approve", approvers: 1, approver_role: "operator" }),
  pause_replication: policySchema.default(confirm),
  array_settings: policySchema.default(confirm),
  /** `/array api` with a method other than GET: the request goes out exactly as typed. */
  raw_api: policySchema.default({ policy: "approve", approvers: 1, approver_role: "admin" }),
  disable_protocol: policySchema.default(confirm),
  /** Demoting a file system discards what no replicated snapshot holds and leaves it read-only. */
  demote_file_system: policySchema.default({ policy: "approve", approvers: 1, approver_role: "operator" }),
  /** Deleting replication (a bucket replica link, an array connection, a target): the copies stop being kept current. */
  delete_replication: policySchema.default({ policy: "approve", approvers: 1, approver_role: "operator" }),
  /** Removing every name server, the only NTP server or the SMTP relay: name lookups, time or alert e-mail stop. */
  remove_last_server: policySchema.default({ policy: "approve", approvers: 1, approver_role: "admin" }),
  /** Disabling an S3 access key: applications signing with it are refused at once. */
  disable_access_key: policySchema.default(confirm),
});
export type DestructiveConfig = z.output<typeof destructiveSchema>;

/** Fails to compile when a destructive class has no policy key. */
export type PolicyKeysComplete =
  Exclude<DestructiveClass, keyof DestructiveConfig> extends never ? true : never;
export const POLICY_KEYS_COMPLETE: PolicyKeysComplete = true;

const timeZone = z
  .string()
  .default("UTC")
  .refine(
    (tz) => {
      try {
        new Intl.DateTimeFormat("en-US", { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    },
    { message: "not a known IANA time zone (e.g. UTC, Europe/Berlin)" },
  );

export const configSections = {
  arrays: arraysConfigSchema,
  access: accessSchema.default({ default_role: "none", overrides: [] }),
  channels: channelsSchema.default({ unbound: "all", public_answers: true, bindings: {} }),
  destructive: destructiveSchema.default(destructiveSchema.parse({})),
  /** Channel ID that receives one line per audited request. */
  audit_channel: slackId.optional(),
  /** Records of changes kept in the store for `/array history`: the last `keep` per object, for `days` days. */
  audit_history: z
    .strictObject({
      keep: z.number().int().min(1).max(1000).default(50),
      days: z.number().int().min(1).max(3650).default(90),
    })
    .default({ keep: 50, days: 90 }),
  /** Every audit record, hash-chained, as JSON lines to a file and/or syslog (src/config/audit-export.ts). */
  audit_export: auditExportSchema.optional(),
  time_zone: timeZone,
  /** Rows a list shows in its answer (50, src/core/presentation/table.ts); when there are more, every row goes as a CSV file. */
  table_rows: z.number().int().min(1).max(100).default(50),
  /**
   * How long `--array all` waits before answering with the arrays that answered; the rest are named as late
   * and edited in when they come.
   */
  fan_out_deadline: durationText.default(10_000),
  /** Sockets and sessions held across all arrays together (src/config/array-pool.ts). */
  array_pool: arrayPoolSchema.default(DEFAULT_ARRAY_POOL),
  /** What one person can make the bot do (src/config/limits.ts). */
  limits: limitsConfigSchema.default(DEFAULT_LIMITS),
  log_level: z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).default("info"),
  /**
   * Log lines held for a slow or stalled stdout before further lines are dropped (and counted in
   * array_chatops_log_lines_dropped_total): logging never blocks the bot (src/log-destination.ts).
   */
  log_buffer_bytes: z
    .number()
    .int()
    .min(4096)
    .max(256 * 2 ** 20)
    .default(2 ** 20),
  /**
   * How long SIGTERM may take: in-flight work is finished within it, whatever it waits on, and the process exits
   * by then (under Kubernetes' default 30 s terminationGracePeriodSeconds).
   */
  shutdown_grace: durationText.default(20_000),
  /** Alert polling, routing to channels, quiet hours, maintenance windows, noise control (src/config/alerts.ts). */
  alerts: alertsConfigSchema.default(alertsConfigSchema.parse({})),
  /** Where the bot keeps state that must survive a restart (alert messages, cursors, pending approvals). */
  store: storeConfigSchema.default({ kind: "sqlite", synchronous: "full" }),
  /** Non-secret Slack settings; the slack config module merges them with the environment's secrets. */
  slack: z.record(z.string(), z.unknown()).optional(),
  /** The MCP face for AI assistants (src/config/mcp.ts); off by default. */
  mcp: mcpConfigSchema.default(mcpConfigSchema.parse({})),
  /** Workflow Builder steps as principals of their own (src/config/workflows.ts); none has a role by default. */
  workflow_steps: workflowStepsSchema.default({}),
  /** Change control (src/config/change-control.ts): approval rules, freezes, break-glass, access requests. */
  ...changeControlSections,
};

/** What the reference checks read; each section is absent when it did not pass its own schema. */
export interface ReferencedSections {
  arrays?: z.output<typeof arraysConfigSchema>;
  access?: AccessConfig;
  channels?: ChannelsConfig;
  alerts?: z.output<typeof alertsConfigSchema>;
}

export interface ConfigIssue {
  path: (string | number)[];
  message: string;
}

/**
 * Names of arrays and tags used elsewhere (access overrides, channel bindings, alert routes) that no array
 * has. Runs on whichever sections are valid, so a file with schema errors still hears about its references.
 */
export function referenceIssues(c: ReferencedSections): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  if (c.arrays === undefined) return issues;
  const arrays = c.arrays;
  const names = new Set(arrays.map((a) => a.name));
  const tags = new Set(arrays.flatMap((a) => a.tags));
  const checkSelector = (sel: string, path: (string | number)[]) => {
    if (sel === "all") return;
    if (sel.startsWith("tag:")) {
      if (!tags.has(sel.slice(4))) issues.push({ path, message: `no array has tag "${sel.slice(4)}"` });
      return;
    }
    if (!names.has(sel)) issues.push({ path, message: `no array is named "${sel}"` });
  };
  c.access?.overrides.forEach((o, i) => {
    o.arrays?.forEach((a, j) => {
      checkSelector(a, ["access", "overrides", i, "arrays", j]);
    });
    o.tags?.forEach((t, j) => {
      checkSelector(`tag:${t}`, ["access", "overrides", i, "tags", j]);
    });
  });
  if (c.alerts) for (const issue of unknownAlertSelectors(c.alerts, arrays)) issues.push(issue);
  const channels = c.channels;
  if (channels === undefined) return issues;
  if (channels.default_array !== undefined)
    checkSelector(channels.default_array, ["channels", "default_array"]);
  for (const [channel, b] of Object.entries(channels.bindings)) {
    b.arrays.forEach((a, j) => {
      checkSelector(a, ["channels", "bindings", channel, "arrays", j]);
    });
    if (b.default_array !== undefined) {
      const path = ["channels", "bindings", channel, "default_array"];
      checkSelector(b.default_array, path);
      const arr = arrays.find((a) => a.name === b.default_array);
      const covered = b.arrays.some(
        (sel) =>
          sel === "all" || sel === arr?.name || (sel.startsWith("tag:") && arr?.tags.includes(sel.slice(4))),
      );
      if (arr && !covered) issues.push({ path, message: `"${arr.name}" is not among the channel's arrays` });
    }
  }
  return issues;
}

/** Every section's own schema, without the cross-references between them. */
export const configBaseSchema = z.strictObject(configSections);

export const configSchema = configBaseSchema.superRefine((c, ctx) => {
  for (const issue of referenceIssues(c)) ctx.addIssue({ code: "custom", ...issue });
  const classes = Object.keys(c.destructive).filter((k) => k !== "expiry" && k !== "approvals_channel");
  c.mcp.forbid_classes.forEach((cls, i) => {
    if (!classes.includes(cls))
      ctx.addIssue({
        code: "custom",
        path: ["mcp", "forbid_classes", i],
        message: `"${cls}" is not a destructive class (one of ${classes.join(", ")})`,
      });
  });
  for (const issue of changeControlIssues(c, classes)) ctx.addIssue({ code: "custom", ...issue });
  if (c.mcp.enabled && c.mcp.channel === undefined && c.destructive.approvals_channel === undefined)
    ctx.addIssue({
      code: "custom",
      path: ["mcp", "channel"],
      message:
        "assistants' changes wait for people's approval in a channel: set mcp.channel or destructive.approvals_channel",
    });
});

export type AppConfig = z.output<typeof configSchema>;
export type AppConfigInput = z.input<typeof configSchema>;
