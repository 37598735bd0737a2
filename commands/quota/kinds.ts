/**
 * What the quota and usage commands share: user vs group (their endpoints and selectors), the list of users or
 * groups people type, and reading quotas and usage back from the array with filters, so that a name with no
 * quota yet reads as "none" instead of the 400 the selector parameters answer with.
 */
import { z } from "zod";
import type { CommandContext } from "../../src/core/catalogue/define-command.js";
import { enumWire, ITEM, listWire, wired } from "../../src/core/words/arg-wire.js";
import { and, anyOf, type Filter } from "../../src/flashblade/filter.js";
import { groupQuotaSchema, userQuotaSchema } from "../../src/flashblade/schemas.js";
import type { GroupQuota, UserQuota } from "../../src/flashblade/types.js";
import { requireApi } from "../../src/flashblade/wire.js";

export type QuotaKind = "user" | "group";

export interface KindSpec {
  kind: QuotaKind;
  /** "/quotas/users" */
  quotaPath: string;
  usagePath: string;
  idParam: "uids" | "gids";
  nameParam: "user_names" | "group_names";
  idLabel: "UID" | "GID";
  defaultField: "default_user_quota" | "default_group_quota";
}

export const KINDS: Record<QuotaKind, KindSpec> = {
  user: {
    kind: "user",
    quotaPath: "/quotas/users",
    usagePath: "/usage/users",
    idParam: "uids",
    nameParam: "user_names",
    idLabel: "UID",
    defaultField: "default_user_quota",
  },
  group: {
    kind: "group",
    quotaPath: "/quotas/groups",
    usagePath: "/usage/groups",
    idParam: "gids",
    nameParam: "group_names",
    idLabel: "GID",
    defaultField: "default_group_quota",
  },
};

/** `user` or `group` (plural and uid/gid accepted). */
export function quotaKind() {
  const schema = z
    .string()
    .transform((v, ctx) => {
      const k = v.trim().toLowerCase();
      if (["user", "users", "uid", "uids"].includes(k)) return KINDS.user;
      if (["group", "groups", "gid", "gids"].includes(k)) return KINDS.group;
      ctx.addIssue({ code: "custom", message: `\`${v}\` is neither user nor group` });
      return z.NEVER;
    })
    .describe("user or group");
  return wired(schema, enumWire(["user", "group"]));
}

/** Users or groups as typed: all numeric ids, or all names; the array takes one kind per request. */
export type Subjects = { by: "id"; ids: number[] } | { by: "name"; names: string[] };

const NAME_RE = /^[^\s,*'"\\]{1,255}$/;

/** All ids, or all names (a name holds something besides digits, so no name reads as an id). */
const SUBJECT = "[^\\s,*'\"\\\\\\u0000-\\u001f\\u007f-\\u009f]";
const SUBJECTS = listWire(`[0-9]{1,9}`).json.pattern as string;
const NAMES = listWire(`[0-9]{0,8}[^\\s,*'"\\\\0-9\\u0000-\\u001f\\u007f-\\u009f]${SUBJECT}{0,30}`).json
  .pattern as string;

export function subjectList() {
  const schema = z.string().transform((v, ctx): Subjects => {
    const parts = [...new Set(v.split(",").map((p) => p.trim()))].filter((p) => p !== "");
    if (parts.length === 0) {
      ctx.addIssue({ code: "custom", message: "name at least one user or group" });
      return z.NEVER;
    }
    const ids = parts.filter((p) => /^\d+$/.test(p));
    if (ids.length > 0 && ids.length < parts.length) {
      ctx.addIssue({
        code: "custom",
        message:
          `\`${v}\` mixes numeric IDs (${ids.join(", ")}) and names; the array selects by one kind at a time ` +
          "(uids/gids or user/group names). Give only names or only IDs, or run the command twice",
      });
      return z.NEVER;
    }
    if (ids.length > 0) return { by: "id", ids: ids.map(Number) };
    const bad = parts.find((p) => !NAME_RE.test(p));
    if (bad !== undefined) {
      ctx.addIssue({ code: "custom", message: `\`${bad}\` is not a user or group name` });
      return z.NEVER;
    }
    return { by: "name", names: parts };
  });
  return wired(schema, { json: { type: "string", anyOf: [{ pattern: SUBJECTS }, { pattern: NAMES }] } });
}

/** File system names, comma separated. */
export function fileSystemList() {
  const schema = z.string().transform((v, ctx) => {
    const parts = [...new Set(v.split(",").map((p) => p.trim()))].filter((p) => p !== "");
    if (parts.length === 0 || parts.some((p) => p.includes("*") || p.length > 255)) {
      ctx.addIssue({ code: "custom", message: `\`${v}\` is not a list of file system names` });
      return z.NEVER;
    }
    return parts;
  });
  return wired(schema, listWire(ITEM.replace(/\[\^,/g, "[^,*")));
}

/** The wire selector for the subjects: `uids=…` or `user_names=…`. */
export function subjectSelector(spec: KindSpec, s: Subjects): Record<string, string[]> {
  return s.by === "id" ? { [spec.idParam]: s.ids.map(String) } : { [spec.nameParam]: s.names };
}

export function subjectsText(s: Subjects): string {
  return s.by === "id" ? s.ids.join(", ") : s.names.join(", ");
}

/** One user or group on one file system: its explicit quota (if any), the default, and what it stores. */
export interface QuotaRow {
  fs: string;
  id: number | undefined;
  name: string | undefined;
  /** Explicit quota in bytes; undefined when none is set. */
  quota: number | undefined;
  /** The file system's default for this kind (0: none). */
  defaultQuota: number;
  usage: number;
}

export function subjectOf(row: QuotaRow): string {
  return row.name ?? (row.id === undefined ? "?" : String(row.id));
}

/** The quota that applies: the explicit one, else the default, else none. */
export function effectiveQuota(row: QuotaRow): number | undefined {
  if (row.quota !== undefined && row.quota > 0) return row.quota;
  return row.defaultQuota > 0 ? row.defaultQuota : undefined;
}

export function matches(row: QuotaRow, s: Subjects, key: number | string): boolean {
  return s.by === "id" ? row.id === key : row.name === key;
}

/** On /usage/* `quota` is the effective one (the default where none is set, or 0 on some arrays). */
function toRow(spec: KindSpec, item: UserQuota | GroupQuota): QuotaRow {
  const who = spec.kind === "user" ? (item as UserQuota).user : (item as GroupQuota).group;
  const def = item.file_system_default_quota ?? 0;
  const q = item.quota !== undefined && item.quota > 0 ? item.quota : undefined;
  return {
    fs: item.file_system?.name ?? "?",
    id: who?.id,
    name: who?.name,
    quota: q,
    defaultQuota: def,
    usage: item.usage ?? 0,
  };
}

function filterFor(spec: KindSpec, fileSystems?: readonly string[], s?: Subjects): Filter | undefined {
  const parts: Filter[] = [];
  const fsPart = fileSystems && anyOf("file_system.name", fileSystems);
  if (fsPart) parts.push(fsPart);
  if (s) {
    const who = s.by === "id" ? anyOf(`${spec.kind}.id`, s.ids) : anyOf(`${spec.kind}.name`, s.names);
    if (who) parts.push(who);
  }
  return parts.length ? and(...parts) : undefined;
}

/** Explicit quotas (GET /quotas/…), selected with a filter so that a name without a quota is simply absent. */
export async function readQuotas(
  ctx: CommandContext,
  spec: KindSpec,
  fileSystems?: readonly string[],
  s?: Subjects,
): Promise<QuotaRow[]> {
  const schema = spec.kind === "user" ? userQuotaSchema : groupQuotaSchema;
  const filter = filterFor(spec, fileSystems, s);
  const out: QuotaRow[] = [];
  const query = filter ? { filter } : {};
  for await (const item of ctx.array.iterate<UserQuota | GroupQuota>(spec.quotaPath, { query, schema })) {
    out.push(toRow(spec, item));
  }
  return out;
}

/** Usage per user or group (GET /usage/…), optionally sorted by the array and capped. */
export async function readUsage(
  ctx: CommandContext,
  spec: KindSpec,
  opts: { fileSystems?: readonly string[]; subjects?: Subjects; top?: number },
): Promise<{ rows: QuotaRow[]; total: number }> {
  const schema = spec.kind === "user" ? userQuotaSchema : groupQuotaSchema;
  const filter = filterFor(spec, opts.fileSystems, opts.subjects);
  const query = { ...(filter ? { filter } : {}), sort: "usage-" };
  const rows: QuotaRow[] = [];
  const cap = opts.top ?? Number.POSITIVE_INFINITY;
  for await (const item of ctx.array.iterate<UserQuota | GroupQuota>(spec.usagePath, { query, schema })) {
    if (rows.length >= cap) break;
    rows.push(toRow(spec, item));
  }
  // The array's sort is what we asked for, but a stable order here keeps ties and older arrays predictable.
  rows.sort((a, b) => b.usage - a.usage || subjectOf(a).localeCompare(subjectOf(b)));
  const total =
    rows.length < cap ? rows.length : await ctx.array.count(spec.usagePath, filter ? { filter } : {});
  return { rows, total };
}

/** Quota support arrived in REST 1.6; say so instead of a bare "not supported". */
export async function requireQuotaApi(ctx: CommandContext, what = "User and group quotas"): Promise<void> {
  await requireApi(ctx, "1.6", `The API for ${what.toLowerCase()}`);
}

/** "over", "≥ 90%" or "". */
export function statusOf(usage: number, quota: number | undefined): string {
  if (quota === undefined) return "";
  if (usage > quota) return "over quota";
  if (usage >= quota * 0.9) return "≥ 90%";
  return "";
}
