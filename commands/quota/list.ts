/**
 * `quota list user|group [who] [--fs a,b]`: the explicit quotas, with usage against them. Hand-written because one
 * verb serves users and groups (two endpoints) chosen by a word, selected by names or ids, and each row is
 * computed (usage against the quota, in % of it).
 */
import { z } from "zod";
import { defineCommand } from "../../src/core/catalogue/define-command.js";
import { message, rich } from "../../src/core/presentation/message.js";
import { truncatedTable } from "../../src/core/presentation/table.js";
import { countOf, formatBytes, formatPercent } from "../../src/core/words/units.js";
import { arraysCovered, listingMessage } from "../shared/listing.js";
import {
  fileSystemList,
  type QuotaKind,
  type QuotaRow,
  quotaKind,
  readQuotas,
  requireQuotaApi,
  statusOf,
  subjectList,
  subjectOf,
  subjectsText,
} from "./kinds.js";

export interface QuotaListResult {
  kind: QuotaKind;
  rows: (QuotaRow & { array: string })[];
}

export const quotaList = defineCommand({
  verb: "list",
  summary: "List user or group quotas with what each one stores against its quota",
  examples: ["quota list user --fs home", "quota list group", "quota list user alice,bob --fs home"],
  role: "viewer",
  endpoints: ["GET /quotas/users"],
  // The required word is the kind (user or group), not an object on one array: a listing across arrays.
  fanOut: "safe",
  positional: ["kind", "who"],
  args: z.object({
    kind: quotaKind(),
    who: subjectList()
      .optional()
      .describe("only these users or groups: names or numeric IDs, comma separated"),
    fs: fileSystemList().optional().describe("only these file systems, comma separated"),
  }),
  async run(a, ctx): Promise<QuotaListResult> {
    await requireQuotaApi(ctx);
    const rows = await readQuotas(ctx, a.kind, a.fs, a.who);
    const ratio = (r: QuotaRow) => (r.quota ? r.usage / r.quota : 0);
    rows.sort((x, y) => x.fs.localeCompare(y.fs) || ratio(y) - ratio(x));
    return { kind: a.kind.kind, rows: rows.map((r) => ({ ...r, array: ctx.arrayName })) };
  },
  merge: (results) => ({
    kind: results[0]?.result.kind ?? "user",
    rows: results.flatMap((r) => r.result.rows),
  }),
  render(result, a, rctx) {
    const { many, where } = arraysCovered(rctx);
    const scope = [a.who ? ` for ${subjectsText(a.who)}` : "", a.fs ? ` on ${a.fs.join(", ")}` : ""].join("");
    if (result.rows.length === 0) {
      const text = `No ${result.kind} quotas${scope} on ${where}.`;
      const hint =
        a.who || a.fs
          ? ` Usage without a quota: \`/array usage ${result.kind}s${a.fs ? ` ${a.fs[0]}` : ""}\`.`
          : "";
      return message(text, [{ type: "section", text: rich`${text}${hint}` }]);
    }
    const columns = [
      ...(many ? [{ key: "array", label: "Array" }] : []),
      { key: "fs", label: "File system" },
      { key: "who", label: result.kind === "user" ? "User" : "Group" },
      { key: "id", label: result.kind === "user" ? "UID" : "GID", align: "right" as const },
      { key: "quota", label: "Quota", align: "right" as const },
      { key: "used", label: "Used", align: "right" as const },
      { key: "pct", label: "% of quota", align: "right" as const },
      { key: "status", label: "Status" },
    ];
    const rows = result.rows.map((r) => ({
      array: r.array,
      fs: r.fs,
      who: subjectOf(r),
      id: r.id === undefined ? "–" : String(r.id),
      quota: r.quota === undefined ? "–" : formatBytes(r.quota),
      used: formatBytes(r.usage),
      pct: r.quota ? formatPercent(r.usage / r.quota) : "–",
      status: statusOf(r.usage, r.quota),
    }));
    const over = result.rows.filter((r) => r.quota !== undefined && r.usage > r.quota).length;
    const headline = `${countOf(result.rows.length, `${result.kind} quota`)}${scope} on ${where}${over ? ` (${over} over quota)` : ""}`;
    const table = truncatedTable(columns, rows, {
      limit: rctx.tableRows,
      filename: "quotas.csv",
      title: headline,
      values: result.rows.map((r) => ({
        array: r.array,
        fs: r.fs,
        who: subjectOf(r),
        id: r.id ?? null,
        quota: r.quota ?? null,
        used: r.usage,
        pct: r.quota ? r.usage / r.quota : null,
        status: statusOf(r.usage, r.quota),
      })),
    });
    const msg = listingMessage(headline, table);
    const defaults = [...new Map(result.rows.map((r) => [r.fs, r.defaultQuota])).entries()].filter(
      ([, d]) => d > 0,
    );
    if (defaults.length > 0) {
      msg.blocks.push({
        type: "context",
        text: rich`Default ${result.kind} quota (applies to everyone without a quota of their own): ${defaults.map(([fs, d]) => `${fs} ${formatBytes(d)}`).join(", ")}.`,
      });
    }
    return msg;
  },
});
