/**
 * `/array usage users|groups [fs] [--top N]`: who stores the most, sorted by usage, with the quota that applies
 * (their own, or the file system default) and how full it is. The usage endpoints are slow on big arrays, so
 * the array sorts and we read only the top N. Hand-written because each row joins usage with the quota that
 * applies, the subject's own or the file system's default (three endpoints).
 */
import { z } from "zod";
import { defineCommand, defineResource } from "../src/core/catalogue/define-command.js";
import { message, rich } from "../src/core/presentation/message.js";
import { truncatedTable } from "../src/core/presentation/table.js";
import { count } from "../src/core/words/arg-types.js";
import { countOf, formatBytes, formatPercent } from "../src/core/words/units.js";
import {
  effectiveQuota,
  fileSystemList,
  KINDS,
  type KindSpec,
  type QuotaRow,
  readQuotas,
  readUsage,
  requireQuotaApi,
  statusOf,
  subjectOf,
} from "./quota/kinds.js";
import { requireFileSystem } from "./shared/file-system-facts.js";
import { arraysCovered, listingMessage } from "./shared/listing.js";

const DEFAULT_TOP = 20;
const MAX_TOP = 1000;

export interface UsageResult {
  kind: "user" | "group";
  rows: (QuotaRow & { array: string })[];
  total: number;
}

function usageCommand(spec: KindSpec) {
  const plural = `${spec.kind}s`;
  return defineCommand({
    verb: plural,
    summary: `Who stores the most: ${plural} by usage, with their quota and % of it`,
    examples: [`usage ${plural} home`, `usage ${plural} home --top 5`, `usage ${plural} --over 90`],
    role: "viewer",
    endpoints: ["GET /file-systems", `GET ${spec.quotaPath}`, `GET ${spec.usagePath}`],
    positional: ["fs"],
    args: z.object({
      fs: fileSystemList().optional().describe("the file system (or several, comma separated); default: all"),
      top: count({ max: MAX_TOP })
        .optional()
        .describe(`how many to show, largest first (default ${DEFAULT_TOP})`),
      over: count({ min: 1, max: 1000 })
        .optional()
        .describe("only those at or above this % of their quota, e.g. 90 (100: over quota)"),
    }),
    async run(a, ctx): Promise<UsageResult> {
      await requireQuotaApi(ctx, "Per-user and per-group usage");
      // A missing file system is named as such, not as "nobody stores anything".
      for (const fs of a.fs ?? []) await requireFileSystem(ctx, fs);
      // With --over every row is needed to find who is near their quota; otherwise the array's top N will do.
      const read = await readUsage(ctx, spec, {
        ...(a.fs ? { fileSystems: a.fs } : {}),
        ...(a.over === undefined ? { top: a.top ?? DEFAULT_TOP } : {}),
      });
      // Usage rows carry the quota that applies; whether it is their own or the default is in /quotas.
      const own = await readQuotas(ctx, spec, a.fs);
      const key = (r: QuotaRow) => `${r.fs}\u0000${r.id ?? r.name}`;
      const explicit = new Map(own.map((r) => [key(r), r.quota]));
      let rows = read.rows.map((r) => ({ ...r, quota: explicit.get(key(r)), array: ctx.arrayName }));
      if (a.over !== undefined) {
        const min = a.over / 100;
        rows = rows.filter((r) => {
          const q = effectiveQuota(r);
          return q !== undefined && r.usage >= q * min;
        });
      }
      return { kind: spec.kind, rows, total: a.over === undefined ? read.total : rows.length };
    },
    merge(results) {
      const rows = results.flatMap((r) => r.result.rows).sort((x, y) => y.usage - x.usage);
      return { kind: spec.kind, rows, total: results.reduce((n, r) => n + r.result.total, 0) };
    },
    render(result, a, rctx) {
      const { many, where } = arraysCovered(rctx);
      const on = `${a.fs ? ` on ${a.fs.join(", ")}` : ""}${a.over === undefined ? "" : ` at ${a.over}% of their quota or more`}`;
      if (result.rows.length === 0) {
        const text =
          a.over === undefined
            ? `No ${spec.kind} stores anything${on} on ${where}.`
            : `No ${plural}${on} on ${where}.`;
        return message(text, [{ type: "section", text: rich`${text}` }]);
      }
      const top = a.top ?? DEFAULT_TOP;
      const rows = result.rows.slice(0, top).map((r, i) => {
        const quota = effectiveQuota(r);
        const own = r.quota !== undefined && r.quota > 0;
        return {
          rank: String(i + 1),
          array: r.array,
          fs: r.fs,
          who: subjectOf(r),
          id: r.id === undefined ? "–" : String(r.id),
          used: formatBytes(r.usage),
          quota: quota === undefined ? "none" : `${formatBytes(quota)}${own ? "" : " (default)"}`,
          pct: quota === undefined ? "–" : formatPercent(r.usage / quota),
          status: statusOf(r.usage, quota),
        };
      });
      const columns = [
        { key: "rank", label: "#", align: "right" as const },
        ...(many ? [{ key: "array", label: "Array" }] : []),
        ...(a.fs?.length === 1 ? [] : [{ key: "fs", label: "File system" }]),
        { key: "who", label: spec.kind === "user" ? "User" : "Group" },
        { key: "id", label: spec.idLabel, align: "right" as const },
        { key: "used", label: "Used", align: "right" as const },
        { key: "quota", label: "Quota", align: "right" as const },
        { key: "pct", label: "% of quota", align: "right" as const },
        { key: "status", label: "Status" },
      ];
      const headline =
        result.total > rows.length
          ? `Top ${rows.length} of ${countOf(result.total, spec.kind)} by usage${on} on ${where}`
          : `${countOf(result.total, spec.kind)} by usage${on} on ${where}`;
      const table = truncatedTable(columns, rows, {
        limit: rctx.tableRows,
        filename: `usage-${plural}.csv`,
        title: headline,
        values: result.rows.slice(0, top).map((r, i) => {
          const quota = effectiveQuota(r);
          return {
            rank: i + 1,
            array: r.array,
            fs: r.fs,
            who: subjectOf(r),
            id: r.id ?? null,
            used: r.usage,
            quota: quota ?? null,
            default_quota: quota !== undefined && !(r.quota !== undefined && r.quota > 0),
            pct: quota === undefined ? null : r.usage / quota,
            status: statusOf(r.usage, quota),
          };
        }),
      });
      const msg = listingMessage(headline, table);
      const over = result.rows.filter((r) => statusOf(r.usage, effectiveQuota(r)) === "over quota");
      if (over.length > 0) {
        msg.blocks.push({
          type: "context",
          text: rich`Over quota (their writes fail): ${over.map((r) => `${many ? `${r.array}: ` : ""}${subjectOf(r)} on ${r.fs}`).join(", ")}. Change a quota with \`/array quota set ${spec.kind} <name> <size> --fs <fs>\`.`,
        });
      }
      return msg;
    },
  });
}

export const usageResource = defineResource({
  name: "usage",
  area: "Insight",
  summary: "Who filled it: usage per user and group, with quotas",
  commands: [usageCommand(KINDS.user), usageCommand(KINDS.group)],
});
