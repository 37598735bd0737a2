/**
 * `quota defaults <fs> --user 1T --group none`: a file system's default user and group quotas, which apply to
 * everyone without a quota of their own; lowering one below what such a user stores blocks their writes, like
 * `quota set`. `quota settings` and `quota notify`: the array's quota notification settings (REST 1.8+).
 * Hand-written because defaults are two fields of a file system (PATCH /file-systems) whose class follows from
 * who stores more than the new default, and settings/notify are verbs of `quota` on a path of their own
 * (/quotas/settings), said in sentences, that a catalogue noun would name `quota settings show|set`.
 */
import { z } from "zod";
import { defineCommand, type Impact, type StateValue } from "../../src/core/catalogue/define-command.js";
import { type Field, message, type Rich, rich } from "../../src/core/presentation/message.js";
import { objectName, size } from "../../src/core/words/arg-types.js";
import { sizeWire, wired } from "../../src/core/words/arg-wire.js";
import { countOf, formatBytes } from "../../src/core/words/units.js";
import { UserFacingError } from "../../src/errors.js";
import { fileSystemSchema } from "../../src/flashblade/schemas.js";
import type { FileSystemPatch } from "../../src/flashblade/types.js";
import { fileSystemPatchBody, requireApi, selectOne } from "../../src/flashblade/wire.js";
import { done } from "../shared/done.js";
import { requireLiveFileSystem } from "../shared/file-system-facts.js";
import { itemsOf, onlyItem, planned } from "../shared/plan.js";
import { KINDS, type KindSpec, readQuotas, readUsage, requireQuotaApi, subjectOf } from "./kinds.js";

/** A default quota: a size, or `none` to remove it (the array stores 0). */
function defaultSize() {
  const bytes = sizeWire(1);
  return wired(z.union([z.enum(["none", "off"]).transform(() => 0), size({ min: 1 })]), {
    json: { anyOf: [{ type: "string", enum: ["none", "off"] }, bytes.json] },
    ...(bytes.word ? { word: bytes.word } : {}),
  });
}

const MAX_LINES = 10;

export const quotaDefaults = defineCommand({
  verb: "defaults",
  summary: "Set a file system's default user or group quota (for everyone without a quota of their own)",
  examples: ["quota defaults home --user 50G", "quota defaults projects --group 10T --user none"],
  role: "operator",
  endpoints: ["PATCH /file-systems {default_user_quota, default_group_quota}"],
  visibility: "in_channel",
  positional: ["fs"],
  args: z.object({
    fs: objectName("file system name").describe("the file system"),
    user: defaultSize().optional().describe("the default user quota, e.g. 50G; none removes it"),
    group: defaultSize().optional().describe("the default group quota, e.g. 10T; none removes it"),
  }),
  async impact(a, ctx): Promise<Impact> {
    await requireQuotaApi(ctx, "Default quotas");
    const fs = await requireLiveFileSystem(ctx, a.fs);
    const current = (spec: KindSpec) => fs[spec.defaultField] ?? 0;
    if (a.user === undefined && a.group === undefined) {
      throw new UserFacingError(
        "NOTHING_TO_CHANGE",
        `Say which default to set: --user 50G or --group 10T (none removes it). Defaults on ${a.fs} now: user ${sizeOrNone(current(KINDS.user))}, group ${sizeOrNone(current(KINDS.group))}.`,
      );
    }
    const patch: FileSystemPatch = {};
    const facts: Field[] = [];
    const warnings: Rich[] = [];
    const state: Record<string, StateValue> = {};
    for (const [spec, next] of [
      [KINDS.user, a.user],
      [KINDS.group, a.group],
    ] as const) {
      if (next === undefined) continue;
      patch[spec.defaultField] = next;
      state[`default_${spec.kind}_quota_bytes`] = current(spec);
      facts.push({
        label: `Default ${spec.kind} quota`,
        value: rich`${sizeOrNone(current(spec))} → ${sizeOrNone(next)}`,
      });
      if (next === 0) continue;
      // Only those without a quota of their own follow the default.
      const explicit = new Set((await readQuotas(ctx, spec, [a.fs])).map(subjectOf));
      const { rows } = await readUsage(ctx, spec, { fileSystems: [a.fs] });
      const over = rows.filter((r) => !explicit.has(subjectOf(r)) && r.usage > next);
      state[`${spec.kind}s_over_new_default`] = over.map(subjectOf).join(",") || null;
      if (over.length > 0) {
        const names = over.slice(0, MAX_LINES).map((r) => `${subjectOf(r)} (stores ${formatBytes(r.usage)})`);
        warnings.push(
          rich`Writes will fail at once for ${countOf(over.length, spec.kind)} without a quota of their own that already ${over.length === 1 ? "stores" : "store"} more than ${formatBytes(next)}: ${names.join(", ")}${over.length > MAX_LINES ? ", …" : ""}.`,
        );
      }
    }
    const version = await ctx.array.version();
    return {
      target: `for ${a.fs}`,
      summary: rich`Changes the default quotas of *${a.fs}* on ${ctx.arrayName}.`,
      facts,
      warnings,
      state,
      requests: [
        planned(
          "PATCH",
          "/file-systems",
          selectOne(ctx.arrayName, version, "/file-systems", { name: a.fs }),
          fileSystemPatchBody(ctx.arrayName, version, patch),
        ),
      ],
    };
  },
  destructive(_a, impact) {
    return Object.entries(impact.state).some(([k, v]) => k.endsWith("_over_new_default") && v !== null)
      ? "quota_below_usage"
      : null;
  },
  gateClasses: ["quota_below_usage"],
  result(responses, _a, ctx, _impact) {
    const fs = onlyItem(ctx, "/file-systems", itemsOf(ctx, responses, fileSystemSchema));
    return { name: fs.name, user: fs.default_user_quota ?? 0, group: fs.default_group_quota ?? 0 };
  },
  render(r, _a, rctx) {
    const text = `Default quotas of ${r.name} on ${rctx.arrays[0] ?? "?"}: user ${sizeOrNone(r.user)}, group ${sizeOrNone(r.group)}.`;
    return message(
      text,
      [
        {
          type: "section",
          text: rich`Default quotas of *${r.name}* on ${rctx.arrays[0] ?? "?"}: user ${sizeOrNone(r.user)}, group ${sizeOrNone(r.group)}.`,
        },
      ],
      { visibility: "in_channel" },
    );
  },
});

function sizeOrNone(bytes: number): string {
  return bytes > 0 ? formatBytes(bytes) : "none";
}

const settingsSchema = z.looseObject({
  name: z.string().optional(),
  contact: z.string().optional(),
  direct_notifications_enabled: z.boolean().optional(),
});

interface SettingsRow {
  array: string;
  supported: boolean;
  contact: string;
  direct: boolean;
}

export const quotaSettings = defineCommand({
  verb: "settings",
  summary: "Show the array's quota notification settings (contact, direct notifications to users)",
  examples: ["quota settings", "quota settings --array all"],
  role: "viewer",
  endpoints: ["GET /quotas/settings"],
  args: z.object({}),
  async run(_a, ctx): Promise<{ rows: SettingsRow[] }> {
    if (!(await ctx.array.supports("1.8"))) {
      return { rows: [{ array: ctx.arrayName, supported: false, contact: "", direct: false }] };
    }
    const page = await ctx.array.get("/quotas/settings", { schema: settingsSchema });
    const s = page.items[0];
    return {
      rows: [
        {
          array: ctx.arrayName,
          supported: true,
          contact: s?.contact ?? "",
          direct: s?.direct_notifications_enabled ?? false,
        },
      ],
    };
  },
  merge: (results) => ({ rows: results.flatMap((r) => r.result.rows) }),
  render({ rows }, _a, rctx) {
    const lines = rows.map((r) =>
      r.supported
        ? rich`*${r.array}*: direct notifications to users and groups ${r.direct ? "on" : "off"}; contact shown in them: ${r.contact || "none"}.`
        : rich`*${r.array}*: quota settings need REST 1.8 or newer.`,
    );
    const headline = `Quota settings on ${rctx.arrays.length > 1 ? `${rctx.arrays.length} arrays` : (rctx.arrays[0] ?? "?")}`;
    return message(headline, [
      { type: "header", text: headline },
      ...lines.map((text) => ({ type: "section" as const, text })),
    ]);
  },
});

export const quotaNotify = defineCommand({
  verb: "notify",
  summary:
    "Change who hears about quotas: direct notifications to users and groups, and the contact they name",
  examples: ["quota notify --direct --contact storage-oncall@example.com", "quota notify --no-direct"],
  role: "operator",
  endpoints: ["PATCH /quotas/settings"],
  visibility: "in_channel",
  args: z.object({
    direct: z
      .boolean()
      .optional()
      .describe("--direct mails users and groups near or over quota; --no-direct stops it"),
    contact: z
      .string()
      .trim()
      .max(255, "the contact is longer than 255 characters")
      .optional()
      .describe("the contact named in those mails (an address, a phone number, a team)"),
  }),
  async impact(a, ctx): Promise<Impact> {
    await requireApi(ctx, "1.8", "Changing quota settings");
    const now = (await ctx.array.get("/quotas/settings", { schema: settingsSchema })).items[0];
    const body: Record<string, unknown> = {};
    const facts: Field[] = [];
    if (a.direct !== undefined && a.direct !== (now?.direct_notifications_enabled ?? false)) {
      body["direct_notifications_enabled"] = a.direct;
      facts.push({ label: "Direct notifications", value: rich`${a.direct ? "off → on" : "on → off"}` });
    }
    if (a.contact !== undefined && a.contact !== (now?.contact ?? "")) {
      body["contact"] = a.contact;
      facts.push({ label: "Contact", value: rich`${now?.contact || "none"} → ${a.contact || "none"}` });
    }
    if (facts.length === 0) {
      throw new UserFacingError(
        "NOTHING_TO_CHANGE",
        `Nothing to change on ${ctx.arrayName}: direct notifications ${now?.direct_notifications_enabled ? "on" : "off"}, contact ${now?.contact || "none"}. Give --direct, --no-direct or --contact.`,
      );
    }
    return {
      target: "quota notifications",
      summary: rich`Changes the quota notification settings of ${ctx.arrayName}.`,
      facts,
      warnings: [],
      state: { direct: now?.direct_notifications_enabled ?? false, contact: now?.contact ?? "" },
      requests: [planned("PATCH", "/quotas/settings", {}, body)],
    };
  },
  result(responses, _a, ctx, _impact) {
    const [s] = itemsOf(ctx, responses, settingsSchema);
    return { direct: s?.direct_notifications_enabled ?? false, contact: s?.contact ?? "" };
  },
  render(r, _a, rctx) {
    const text = `Quota notifications on ${rctx.arrays[0] ?? "?"}: direct ${r.direct ? "on" : "off"}, contact ${r.contact || "none"}.`;
    return done(text);
  },
});
