/**
 * The configuration file's schema: one strict object composed of section schemas (add a section by adding a
 * key to `configSections`). Cross-references (array names in access rules and channel bindings) are checked
 * at the root so every problem is reported in one pass.
 */
import { z } from "zod";
import type { DestructiveClass } from "../core/define-command.js";
import { ROLES } from "../core/roles.js";
import { parseDuration } from "../core/units.js";
import { alertsConfigSchema, storeConfigSchema, unknownAlertSelectors } from "./alerts.js";
import { arraysConfigSchema } from "./arrays.js";

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
});

export const channelsSchema = z.strictObject({
  /** Used when a channel has no default of its own and no --array is given. */
  default_array: z.string().min(1).optional(),
  /** What channels without a binding may target. */
  unbound: z.enum(["all", "none"]).default("all"),
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
  disable_protocol: policySchema.default(confirm),
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
  channels: channelsSchema.default({ unbound: "all", bindings: {} }),
  destructive: destructiveSchema.default(destructiveSchema.parse({})),
  /** Channel ID that receives one line per audited request. */
  audit_channel: slackId.optional(),
  time_zone: timeZone,
  log_level: z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).default("info"),
  /** Alert polling, routing to channels, quiet hours, maintenance windows, noise control (src/config/alerts.ts). */
  alerts: alertsConfigSchema.default(alertsConfigSchema.parse({})),
  /** Where the bot keeps state that must survive a restart (alert messages, cursors, pending approvals). */
  store: storeConfigSchema.default({ kind: "sqlite", synchronous: "full" }),
  /** Non-secret Slack settings; the slack config module merges them with the environment's secrets. */
  slack: z.record(z.string(), z.unknown()).optional(),
};

export const configSchema = z.strictObject(configSections).superRefine((c, ctx) => {
  const names = new Set(c.arrays.map((a) => a.name));
  const tags = new Set(c.arrays.flatMap((a) => a.tags));
  const checkSelector = (sel: string, path: (string | number)[]) => {
    if (sel === "all") return;
    if (sel.startsWith("tag:")) {
      if (!tags.has(sel.slice(4)))
        ctx.addIssue({ code: "custom", path, message: `no array has tag "${sel.slice(4)}"` });
      return;
    }
    if (!names.has(sel)) ctx.addIssue({ code: "custom", path, message: `no array is named "${sel}"` });
  };
  c.access.overrides.forEach((o, i) => {
    o.arrays?.forEach((a, j) => {
      checkSelector(a, ["access", "overrides", i, "arrays", j]);
    });
    o.tags?.forEach((t, j) => {
      checkSelector(`tag:${t}`, ["access", "overrides", i, "tags", j]);
    });
  });
  for (const issue of unknownAlertSelectors(c.alerts, c.arrays)) ctx.addIssue({ code: "custom", ...issue });
  if (c.channels.default_array !== undefined)
    checkSelector(c.channels.default_array, ["channels", "default_array"]);
  for (const [channel, b] of Object.entries(c.channels.bindings)) {
    b.arrays.forEach((a, j) => {
      checkSelector(a, ["channels", "bindings", channel, "arrays", j]);
    });
    if (b.default_array !== undefined) {
      const path = ["channels", "bindings", channel, "default_array"];
      checkSelector(b.default_array, path);
      const arr = c.arrays.find((a) => a.name === b.default_array);
      const covered = b.arrays.some(
        (sel) =>
          sel === "all" || sel === arr?.name || (sel.startsWith("tag:") && arr?.tags.includes(sel.slice(4))),
      );
      if (arr && !covered) {
        ctx.addIssue({ code: "custom", path, message: `"${arr.name}" is not among the channel's arrays` });
      }
    }
  }
});

export type AppConfig = z.output<typeof configSchema>;
export type AppConfigInput = z.input<typeof configSchema>;
