/**
 * `/array diagnose`: "why is it slow?" in one answer. For the window (default the last hour) it compares
 * latency, IOPS and bandwidth of every protocol with the same hours of the previous days, and adds what else
 * is off: a client that dominates, open alerts, replication that lags, an array above 80 %. Findings are
 * ranked by how far they are from normal; a quiet array is said to be quiet. Hand-written because it compares
 * the window with the same hours of earlier days over ten endpoints and ranks what it finds, which no one
 * resource's list or show does.
 */
import { z } from "zod";
import { defineCommand, defineResource } from "../../src/core/catalogue/define-command.js";
import { type Block, joinRich, message, plain, rich } from "../../src/core/presentation/message.js";
import { truncatedTable } from "../../src/core/presentation/table.js";
import { windowWire, wired } from "../../src/core/words/arg-wire.js";
import { formatDuration, formatPercent, parseDuration } from "../../src/core/words/units.js";
import { analyze, type Diagnosis } from "./analyze.js";
import { diagnoseChart } from "./chart.js";
import { BASELINE_DAYS, collect } from "./collect.js";
import { evidenceBlocks, findingText, firstOf, summaryOf } from "./render.js";

const MINUTE = 60_000;
const HELP = "use a duration from 15m to 24h, such as 30m, 1h or 6h";

function since() {
  return wired(
    z.union([z.number(), z.string()]).transform((v, ctx) => {
      const ms = typeof v === "number" ? v : parseDuration(v);
      if (ms === undefined || ms < 15 * MINUTE || ms > 24 * 60 * MINUTE) {
        ctx.addIssue({ code: "custom", message: `\`${String(v)}\` is not a window I can diagnose; ${HELP}` });
        return z.NEVER;
      }
      return {
        ms,
        text: typeof v === "number" ? formatDuration(v).replace(/ /g, "") : v.trim().toLowerCase(),
      };
    }),
    windowWire("(1[5-9]|[2-5][0-9])m|([1-9]|1[0-9]|2[0-4])h", ["30m", "1h", "6h"]),
  );
}

export interface DiagnoseResult {
  diagnoses: Diagnosis[];
}

const diagnoseRun = defineCommand({
  verb: "show",
  summary: "Why is it slow? Latency, load, clients, alerts, replication and capacity against normal, ranked",
  examples: ["diagnose show", "diagnose show --since 6h", "diagnose show --array all"],
  role: "viewer",
  endpoints: [
    "GET /alerts",
    "GET /arrays/clients/performance",
    "GET /arrays/performance",
    "GET /arrays/space",
    "GET /bucket-replica-links",
    "GET /buckets/performance",
    "GET /file-system-replica-links",
    "GET /file-systems/groups/performance",
    "GET /file-systems/performance",
    "GET /file-systems/users/performance",
    "GET /qos-policies",
    "GET /qos-policies/members",
  ],
  args: z.object({
    since: since()
      .default({ ms: 60 * MINUTE, text: "1h" })
      .describe(`the window to look at; ${HELP}`),
  }),
  async run(args, ctx): Promise<DiagnoseResult> {
    return { diagnoses: [analyze(await collect(ctx, args.since.ms))] };
  },
  merge(results) {
    return { diagnoses: results.flatMap((r) => r.result.diagnoses) };
  },
  render(result, args, rctx) {
    const window = args.since.text;
    const only = result.diagnoses.length === 1 ? result.diagnoses[0] : undefined;
    if (!only) {
      const rows = result.diagnoses.map((d) => ({
        array: d.data.array,
        findings: String(d.findings.length),
        first: firstOf(d),
      }));
      const table = truncatedTable(
        [
          { key: "array", label: "Array" },
          { key: "findings", label: "Findings", align: "right" },
          { key: "first", label: "Most abnormal" },
        ],
        rows,
        {
          limit: rctx.tableRows,
          filename: "diagnose-arrays.csv",
          title: `Diagnosis, last ${window}`,
          values: result.diagnoses.map((d, i) => ({
            array: d.data.array,
            findings: d.findings.length,
            first: rows[i]?.first ?? null,
          })),
        },
      );
      const headline = `Diagnosis of ${result.diagnoses.length} arrays, last ${window}`;
      return message(
        `${headline}: ${rows.map((r) => `${r.array}: ${r.first}`).join("; ")}`,
        [
          { type: "header", text: headline },
          table.block,
          { type: "context", text: rich`For the evidence and a chart of one array add \`--array <name>\`.` },
        ],
        table.attachments.length ? { attachments: table.attachments } : {},
      );
    }
    const d = only;
    const headline = `Diagnosis of ${d.data.array}, last ${window}`;
    const blocks: Block[] = [{ type: "header", text: headline }];
    if (d.checks.length === 0) {
      blocks.push({
        type: "context",
        text: rich`⚠ ${d.data.array} returned no performance history for the window, so latency and load were not compared with usual.`,
      });
    }
    if (d.findings.length === 0 && d.checks.length === 0) {
      blocks.push({
        type: "section",
        text: rich`No alert, replication or capacity problem on ${d.data.array}, but without performance history this is not a clean bill of health.`,
      });
    } else if (d.findings.length === 0) {
      const full = d.data.capacity
        ? `, and it is ${formatPercent(d.data.capacity.used / d.data.capacity.total)} full`
        : "";
      blocks.push({
        type: "section",
        text: rich`*Nothing abnormal* on ${d.data.array} in the last ${window}: latency, IOPS and bandwidth of every protocol are within their usual range for these hours, no client dominates, no warning or critical alert is open and replication is keeping up${full}.`,
      });
    } else {
      blocks.push({
        type: "section",
        text: rich`*${d.findings.length} finding${d.findings.length === 1 ? "" : "s"}*, most abnormal first:`,
      });
      const shown = d.findings.slice(0, 10);
      blocks.push({
        type: "section",
        text: joinRich(
          shown.map((f, i) => joinRich([plain(`${i + 1}. `), findingText(f, d.data.end)])),
          "\n",
        ),
      });
      if (d.findings.length > shown.length)
        blocks.push({ type: "context", text: rich`…and ${d.findings.length - shown.length} more.` });
    }
    blocks.push(...evidenceBlocks(d, window));
    const top = d.findings.find((f) => f.kind === "metric");
    const protocol = top?.kind === "metric" ? top.check.protocol : "all";
    if ((d.data.perf[protocol]?.window.length ?? 0) > 0)
      blocks.push(diagnoseChart(d.data, protocol, window, rctx.timeZone));
    const days = d.data.perf.all?.days.length ?? 0;
    blocks.push({
      type: "context",
      text: rich`Usual = the median of the same hours on the previous ${days} of ${BASELINE_DAYS} days; σ = robust spread of those days (at least 5 %). A metric is reported when it is 3 σ and 25 % or more from usual; alerts ${d.data.alerts.source === "engine" ? "from the alert engine" : "read from the array (the alert engine is not running here)"}.`,
    });
    const text = `${headline}: ${summaryOf(d)}`;
    return message(text, blocks);
  },
});

export const diagnoseResource = defineResource({
  name: "diagnose",
  summary: "Why is it slow? Everything abnormal on an array, ranked",
  defaultVerb: "show",
  commands: [diagnoseRun],
});
