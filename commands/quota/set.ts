/**
 * `quota set user|group <who> <size> --fs <fs>`: one command whether the quota exists or not. It reads first:
 * the users that already have a quota are updated with one PATCH, the others created with one POST, each
 * selecting every user at once. A quota below what someone already stores blocks their writes at once, so that
 * is the destructive class quota_below_usage and the impact lists those users. Hand-written because it plans a
 * POST or a PATCH per subject from what the array holds, and its class follows from usage.
 */
import { z } from "zod";
import {
  type CommandContext,
  defineCommand,
  type Impact,
  type PlannedRequest,
  type StateValue,
} from "../../src/core/catalogue/define-command.js";
import { type Field, message, type Rich, rich } from "../../src/core/presentation/message.js";
import { size } from "../../src/core/words/arg-types.js";
import { countOf, formatBytes } from "../../src/core/words/units.js";
import { UserFacingError } from "../../src/errors.js";
import { requireLiveFileSystem } from "../shared/file-system-facts.js";
import { planned } from "../shared/plan.js";
import {
  fileSystemList,
  type KindSpec,
  matches,
  type QuotaRow,
  quotaKind,
  readQuotas,
  readUsage,
  requireQuotaApi,
  type Subjects,
  subjectList,
  subjectSelector,
} from "./kinds.js";

/** Facts shown per user at most; the rest are counted. */
const MAX_LINES = 15;

/** One selected user or group on one file system, as read just before asking. */
export interface Selected {
  fs: string;
  key: string | number;
  row: QuotaRow | undefined;
  quota: number | undefined;
  usage: number;
}

/** Every (file system, user) pair the command names, with its current quota and usage. */
export async function readSelected(
  ctx: CommandContext,
  spec: KindSpec,
  fileSystems: readonly string[],
  who: Subjects,
): Promise<{ selected: Selected[]; defaults: Map<string, number> }> {
  const defaults = new Map<string, number>();
  for (const name of fileSystems) {
    const fs = await requireLiveFileSystem(ctx, name);
    defaults.set(name, fs[spec.defaultField] ?? 0);
  }
  const [quotas, usage] = await Promise.all([
    readQuotas(ctx, spec, fileSystems, who),
    readUsage(ctx, spec, { fileSystems, subjects: who }),
  ]);
  const keys: (string | number)[] = who.by === "id" ? who.ids : who.names;
  const selected: Selected[] = [];
  for (const fs of fileSystems) {
    for (const key of keys) {
      const q = quotas.find((r) => r.fs === fs && matches(r, who, key));
      const u = usage.rows.find((r) => r.fs === fs && matches(r, who, key));
      selected.push({ fs, key, row: q ?? u, quota: q?.quota, usage: u?.usage ?? q?.usage ?? 0 });
    }
  }
  return { selected, defaults };
}

export function label(spec: KindSpec, s: Selected): string {
  const id = s.row?.id;
  if (typeof s.key === "number")
    return s.row?.name ? `${s.row.name} (${spec.idLabel} ${s.key})` : `${spec.idLabel} ${s.key}`;
  return id === undefined ? s.key : `${s.key} (${spec.idLabel} ${id})`;
}

function selectorOf(spec: KindSpec, who: Subjects, keys: (string | number)[]): Record<string, string[]> {
  return subjectSelector(
    spec,
    who.by === "id" ? { by: "id", ids: keys as number[] } : { by: "name", names: keys as string[] },
  );
}

export const quotaSet = defineCommand({
  verb: "set",
  summary: "Set the quota of one or more users or groups on a file system (creates or updates as needed)",
  examples: [
    "quota set user alice,erin 2T --fs home",
    "quota set group research 25T --fs projects,ml-datasets",
    "quota set user 1001,1002 500G --fs home --dry-run",
  ],
  role: "operator",
  endpoints: ["PATCH /quotas/groups", "PATCH /quotas/users", "POST /quotas/groups", "POST /quotas/users"],
  visibility: "in_channel",
  positional: ["kind", "who", "size"],
  args: z.object({
    kind: quotaKind(),
    who: subjectList().describe("users or groups: names or numeric IDs (not both), comma separated"),
    size: size({ min: 1 }).describe("the quota, e.g. 2T (binary units)"),
    fs: fileSystemList().describe("the file system (or several, comma separated)"),
  }),
  async impact(a, ctx): Promise<Impact> {
    await requireQuotaApi(ctx);
    const spec = a.kind;
    const { selected, defaults } = await readSelected(ctx, spec, a.fs, a.who);
    if (selected.every((s) => s.quota === a.size)) {
      throw new UserFacingError(
        "NOTHING_TO_CHANGE",
        `Nothing to change: the ${spec.kind} quota of ${selected.map((s) => label(spec, s)).join(", ")} on ${a.fs.join(", ")} is already ${formatBytes(a.size)}.`,
      );
    }
    const posts: PlannedRequest[] = [];
    const patches: PlannedRequest[] = [];
    const state: Record<string, StateValue> = {};
    const facts: Field[] = [];
    const over: Selected[] = [];
    let creates = 0;
    let updates = 0;
    for (const fs of a.fs) {
      const here = selected.filter((s) => s.fs === fs);
      const fresh = here.filter((s) => s.quota === undefined).map((s) => s.key);
      const existing = here.filter((s) => s.quota !== undefined).map((s) => s.key);
      const quotaOf = (method: "POST" | "PATCH", keys: typeof fresh) =>
        planned(
          method,
          spec.quotaPath,
          { file_system_names: [fs], ...selectorOf(spec, a.who, keys) },
          { quota: a.size },
        );
      if (fresh.length) {
        creates += fresh.length;
        posts.push(quotaOf("POST", fresh));
      }
      if (existing.length) {
        updates += existing.length;
        patches.push(quotaOf("PATCH", existing));
      }
    }
    // Every POST before any PATCH: a POST is the call the array may refuse (a name its directory does not
    // know), and refused before anything was updated, it leaves nothing half-applied.
    const requests = [...posts, ...patches];
    for (const s of selected) {
      const def = defaults.get(s.fs) ?? 0;
      const now =
        s.quota !== undefined ? formatBytes(s.quota) : def > 0 ? `default ${formatBytes(def)}` : "none";
      const below = s.usage > a.size;
      if (below) over.push(s);
      state[`${s.fs}/${s.key}_quota_bytes`] = s.quota ?? null;
      state[`${s.fs}/${s.key}_over_new_quota`] = below;
      if (facts.length < MAX_LINES) {
        facts.push({
          label: `${label(spec, s)} on ${s.fs}`,
          value: rich`stores ${formatBytes(s.usage)}; quota ${now} → ${formatBytes(a.size)}${below ? " ⚠ over" : ""}`,
        });
      }
    }
    if (selected.length > MAX_LINES) {
      facts.push({
        label: "More",
        value: rich`${countOf(selected.length - MAX_LINES, spec.kind)} not shown`,
      });
    }
    const warnings: Rich[] = [];
    if (over.length > 0) {
      const names = over
        .slice(0, MAX_LINES)
        .map(
          (s) =>
            `${label(spec, s)} on ${s.fs} (stores ${formatBytes(s.usage)}, ${formatBytes(s.usage - a.size)} over)`,
        );
      warnings.push(
        rich`Writes will fail at once for ${countOf(over.length, spec.kind)} already above ${formatBytes(a.size)}: ${names.join("; ")}${over.length > MAX_LINES ? "; …" : ""}. They can only delete data until they are under the quota.`,
      );
    }
    const what = `${spec.kind} quota`;
    const verbs = [creates ? `creates ${creates}` : "", updates ? `updates ${updates}` : ""]
      .filter(Boolean)
      .join(", ");
    return {
      target: `${what} on ${a.fs.join(", ")}`,
      summary: rich`Sets the ${what} of ${countOf(selected.length / a.fs.length, spec.kind)} on ${a.fs.join(", ")} (${ctx.arrayName}) to ${formatBytes(a.size)}: ${verbs}.`,
      facts,
      warnings,
      state,
      requests,
    };
  },
  destructive(_a, impact) {
    return Object.entries(impact.state).some(([k, v]) => k.endsWith("_over_new_quota") && v === true)
      ? "quota_below_usage"
      : null;
  },
  gateClasses: ["quota_below_usage"],
  async result(_responses, a, ctx, _impact) {
    const rows = await readQuotas(ctx, a.kind, a.fs, a.who);
    return { kind: a.kind.kind, rows, fs: a.fs };
  },
  render({ kind, rows, fs }, a, rctx) {
    const who = rows.map((r) => r.name ?? String(r.id)).filter((v, i, all) => all.indexOf(v) === i);
    const text = `Set the ${kind} quota of ${who.join(", ")} on ${fs.join(", ")} (${rctx.arrays[0] ?? "?"}) to ${formatBytes(a.size)}.`;
    const overRows = rows.filter((r) => r.quota !== undefined && r.usage > r.quota);
    const blocks = [
      {
        type: "section" as const,
        text: rich`Set the ${kind} quota of *${who.join(", ")}* on ${fs.join(", ")} (${rctx.arrays[0] ?? "?"}) to ${formatBytes(a.size)}.`,
      },
      ...(overRows.length
        ? [
            {
              type: "context" as const,
              text: rich`Over quota now: ${overRows.map((r) => `${r.name ?? r.id} on ${r.fs} (${formatBytes(r.usage)} stored)`).join(", ")}.`,
            },
          ]
        : []),
    ];
    return message(text, blocks, { visibility: "in_channel" });
  },
});
