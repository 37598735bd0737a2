/**
 * A fleet storm summary (fleet-storm.ts): the same alert open on many arrays, one row per array, worst first.
 * Pure, like render.ts. The table is capped (Slack's block limits; the table block counts the rest), and the
 * card offers no snooze: a snooze is granted per array, and this card spans arrays the clicker may not run.
 */
import type { Block, Message } from "../core/presentation/message.js";
import { rich } from "../core/presentation/message.js";
import { alertTitle, isClosed } from "./alert-model.js";
import { type AlertRecord, SEVERITIES, type Severity, severityRank } from "./types.js";

/** Rows shown; the rest are counted under the table. */
export const FLEET_ROWS = 50;

const EMOJI: Record<Severity, string> = { critical: "🔴", warning: "🟠", info: "🔵" };

interface ArrayRow {
  array: string;
  open: number;
  closed: number;
  worst: Severity | undefined;
}

export function renderFleetSummary(members: readonly AlertRecord[]): Message {
  const byArray = new Map<string, ArrayRow>();
  for (const m of members) {
    const row = byArray.get(m.array) ?? { array: m.array, open: 0, closed: 0, worst: undefined };
    if (isClosed(m)) row.closed += 1;
    else {
      row.open += 1;
      if (row.worst === undefined || severityRank(m.severity) > severityRank(row.worst))
        row.worst = m.severity;
    }
    byArray.set(m.array, row);
  }
  const rank = (r: ArrayRow) => (r.worst === undefined ? -1 : severityRank(r.worst));
  const rows = [...byArray.values()].sort(
    (x, y) => rank(y) - rank(x) || y.open - x.open || x.array.localeCompare(y.array),
  );
  const stillOpen = rows.filter((r) => r.open > 0);
  const worst = stillOpen[0]?.worst;
  const mark = worst ? EMOJI[worst] : "✅";
  const sample = members[0];
  const title = sample ? alertTitle(sample) : "Alert";
  const headline =
    stillOpen.length > 0
      ? `${title} on ${rows.length} arrays (${stillOpen.length} open)`
      : `${title} on ${rows.length} arrays, all closed`;
  const counts = SEVERITIES.map((s) => [s, stillOpen.filter((r) => r.worst === s).length] as const)
    .filter(([, c]) => c > 0)
    .map(([s, c]) => `${c} ${s}`)
    .reverse();
  const blocks: Block[] = [
    { type: "header", text: `${mark} ${headline}` },
    {
      type: "section",
      text: rich`The same alert (code ${String(sample?.code ?? "")}) opened on many arrays at once, so they are listed in this one message, worst first. Arrays joining it and later changes go into its thread.`,
    },
    {
      type: "table",
      columns: [
        { key: "array", label: "Array" },
        { key: "severity", label: "Worst open" },
        { key: "open", label: "Open", align: "right" },
        { key: "closed", label: "Closed", align: "right" },
      ],
      rows: rows.slice(0, FLEET_ROWS).map((r) => ({
        array: r.array,
        severity: r.worst ?? "–",
        open: String(r.open),
        closed: String(r.closed),
      })),
      totalRows: rows.length,
    },
  ];
  if (counts.length > 0) blocks.push({ type: "context", text: rich`Arrays open: ${counts.join(", ")}.` });
  return { text: `${mark} ${headline}`, blocks, visibility: "in_channel" };
}
