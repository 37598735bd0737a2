/**
 * `quota delete user|group <who> --fs <fs>`: removes explicit quotas in one request. Names without a quota are
 * answered before anything is sent; the impact says which default takes over and who it would block.
 * Hand-written because one verb serves users and groups (two endpoints) selected by names or ids, and the impact
 * reads the file system's defaults and usage to say who the change blocks.
 */
import { z } from "zod";
import { defineCommand, type Impact, type StateValue } from "../../src/core/catalogue/define-command.js";
import { type Field, message, type Rich, rich } from "../../src/core/presentation/message.js";
import { countOf, formatBytes } from "../../src/core/words/units.js";
import { UserFacingError } from "../../src/errors.js";
import { planned } from "../shared/plan.js";
import {
  fileSystemList,
  quotaKind,
  requireQuotaApi,
  subjectList,
  subjectSelector,
  subjectsText,
} from "./kinds.js";
import { label, readSelected } from "./set.js";

export const quotaDelete = defineCommand({
  verb: "delete",
  summary:
    "Remove the quota of one or more users or groups on a file system (the default quota then applies)",
  examples: ["quota delete user alice,bob --fs home", "quota delete group 3002 --fs projects"],
  role: "operator",
  endpoints: ["DELETE /quotas/groups", "DELETE /quotas/users"],
  visibility: "in_channel",
  positional: ["kind", "who"],
  args: z.object({
    kind: quotaKind(),
    who: subjectList().describe("users or groups: names or numeric IDs (not both), comma separated"),
    fs: fileSystemList().describe("the file system (or several, comma separated)"),
  }),
  async impact(a, ctx): Promise<Impact> {
    await requireQuotaApi(ctx);
    const spec = a.kind;
    const { selected, defaults } = await readSelected(ctx, spec, a.fs, a.who);
    const missing = selected.filter((s) => s.quota === undefined);
    if (missing.length > 0) {
      const has = selected.filter((s) => s.quota !== undefined);
      throw new UserFacingError(
        "QUOTA_NOT_FOUND",
        `${missing.map((s) => `${label(spec, s)} on ${s.fs}`).join(", ")} ${missing.length === 1 ? "has" : "have"} no ${spec.kind} quota, so there is nothing to delete. ` +
          (has.length
            ? `Of those named, only ${has.map((s) => `${label(spec, s)} on ${s.fs}`).join(", ")} ${has.length === 1 ? "has" : "have"} one. `
            : "") +
          `See the quotas with \`/array quota list ${spec.kind} --fs ${a.fs.join(",")}\`. Nothing was changed.`,
      );
    }
    const facts: Field[] = [];
    const state: Record<string, StateValue> = {};
    const blocked: string[] = [];
    for (const s of selected) {
      const def = defaults.get(s.fs) ?? 0;
      const after = def > 0 ? `default ${formatBytes(def)}` : "no limit";
      const overDefault = def > 0 && s.usage > def;
      if (overDefault) blocked.push(`${label(spec, s)} on ${s.fs} (stores ${formatBytes(s.usage)})`);
      state[`${s.fs}/${s.key}_quota_bytes`] = s.quota ?? null;
      state[`${s.fs}/${s.key}_over_default`] = overDefault;
      facts.push({
        label: `${label(spec, s)} on ${s.fs}`,
        value: rich`stores ${formatBytes(s.usage)}; quota ${formatBytes(s.quota ?? 0)} → ${after}${overDefault ? " ⚠ over" : ""}`,
      });
    }
    const warnings: Rich[] = blocked.length
      ? [
          rich`The file system default then applies and ${countOf(blocked.length, spec.kind)} already ${blocked.length === 1 ? "stores" : "store"} more than it; their writes will fail: ${blocked.join("; ")}.`,
        ]
      : [];
    const requests = a.fs.map((fs) =>
      planned("DELETE", spec.quotaPath, { file_system_names: [fs], ...subjectSelector(spec, a.who) }),
    );
    return {
      target: `${spec.kind} quota of ${subjectsText(a.who)} on ${a.fs.join(", ")}`,
      summary: rich`Deletes the ${spec.kind} quota of ${subjectsText(a.who)} on ${a.fs.join(", ")} (${ctx.arrayName}).`,
      facts,
      warnings,
      state,
      requests,
    };
  },
  destructive: () => "delete",
  gateClasses: ["delete"],
  result(_responses, a, _ctx, _impact) {
    return { kind: a.kind.kind, who: subjectsText(a.who), fs: a.fs };
  },
  render({ kind, who, fs }, _a, rctx) {
    const text = `Deleted the ${kind} quota of ${who} on ${fs.join(", ")} (${rctx.arrays[0] ?? "?"}).`;
    return message(
      text,
      [
        {
          type: "section",
          text: rich`Deleted the ${kind} quota of *${who}* on ${fs.join(", ")} (${rctx.arrays[0] ?? "?"}).`,
        },
      ],
      {
        visibility: "in_channel",
      },
    );
  },
});
