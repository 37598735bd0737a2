/**
 * `replication status [--array …]`: "are we protected?" — every replica link's lag against the interval that
 * schedules it, worst first, one line per link across all arrays, the file systems nothing protects, and for
 * every broken or paused link what to check, read from the array's own state. Hand-written because it joins a
 * dozen endpoints (links, policies, transfers, connections, targets, credentials) into one verdict per link.
 */
import { z } from "zod";
import {
  type CommandContext,
  defineCommand,
  type FollowUp,
} from "../../src/core/catalogue/define-command.js";
import { type CellMark, markBefore } from "../../src/core/presentation/cell-marks.js";
import { formatWhen } from "../../src/core/presentation/format-time.js";
import {
  type Block,
  joinRich,
  message,
  plain,
  type Rich,
  rich,
} from "../../src/core/presentation/message.js";
import { truncatedTable } from "../../src/core/presentation/table.js";
import { duration } from "../../src/core/words/arg-types.js";
import { countOf, formatDuration } from "../../src/core/words/units.js";
import { eq } from "../../src/flashblade/filter.js";
import { fileSystemSchema } from "../../src/flashblade/schemas.js";
import { fileSystemMembers, linkMembers, replicatedFileSystems } from "../policy/read.js";
import { arraysCovered } from "../shared/listing.js";
import {
  type ArrayReplication,
  type LinkRow,
  readReplication,
  sortWorstFirst,
  type Verdict,
} from "./read.js";

/** The interval a link no policy schedules (a bucket link) is measured against, unless --rpo says otherwise. */
export const DEFAULT_RPO = 60 * 60_000;
const ICON: Record<Verdict, CellMark> = { broken: "🔴", paused: "⏸️", behind: "🟡", ok: "🟢" };

/** Live file systems with no snapshot policy and no replica link (the same rule as `policy gaps`). */
async function unprotectedFileSystems(ctx: CommandContext): Promise<string[]> {
  const [fsPairs, linkPairs, links] = await Promise.all([
    fileSystemMembers(ctx),
    linkMembers(ctx),
    replicatedFileSystems(ctx),
  ]);
  const covered = new Set([...fsPairs.map(([, fs]) => fs), ...linkPairs.map(([, l]) => l.fs), ...links]);
  const out: string[] = [];
  const query = { filter: eq("destroyed", false) };
  for await (const fs of ctx.array.iterate("/file-systems", { query, schema: fileSystemSchema })) {
    if (!fs.destroyed && !covered.has(fs.name)) out.push(fs.name);
  }
  return out.sort();
}

export function linkName(r: Pick<LinkRow, "local" | "remote" | "remoteObject">): string {
  return `${r.local} → ${r.remote}${r.remoteObject === r.local ? "" : `:${r.remoteObject}`}`;
}

/** The command that resumes a paused bucket link, as the user types it. */
export function resumeCommand(r: LinkRow): string {
  return `/array replica-link bucket resume ${r.local} --remote ${r.remote} --array ${r.array}`;
}

/** Sentences whose `quoted` parts are commands: those become code, the rest is escaped text. */
function withCode(text: string): Rich {
  return joinRich(text.split("`").map((part, i) => (i % 2 === 1 ? rich`\`${part}\`` : plain(part))));
}

function hintBlock(r: LinkRow, many: boolean): Block {
  const lines = [...r.hints];
  if (r.verdict === "paused" && r.kind === "bucket") lines.push(`Resume it with \`${resumeCommand(r)}\`.`);
  const said = r.details ? `: "${r.details}"` : ".";
  return {
    type: "context",
    text: rich`${ICON[r.verdict]} ${many ? `${r.array}: ` : ""}${r.kind} link ${linkName(r)} is ${r.verdict}${said} ${withCode(lines.join(" "))}`,
  };
}

export const replicationStatus = defineCommand({
  verb: "status",
  summary:
    "Are we protected? Every replica link's lag against its interval, worst first, and what is unprotected",
  examples: ["replication status", "replication status --array all", "replication status --rpo 15m"],
  role: "viewer",
  endpoints: [
    "GET /array-connections",
    "GET /array-connections/path",
    "GET /bucket-replica-links",
    "GET /file-system-replica-links",
    "GET /file-system-replica-links/transfer",
    "GET /file-system-snapshots/transfer",
    "GET /file-systems",
    "GET /object-store-remote-credentials",
    "GET /policies",
    "GET /policies/file-system-replica-links",
    "GET /policies/file-systems",
    "GET /targets",
  ],
  args: z.object({
    rpo: duration()
      .optional()
      .describe("the interval for links no policy schedules (bucket links); default 1h"),
  }),
  async run(a, ctx): Promise<ArrayReplication> {
    return readReplication(ctx, {
      defaultInterval: a.rpo ?? DEFAULT_RPO,
      unprotected: unprotectedFileSystems,
    });
  },
  merge: (results) => ({
    rows: results.flatMap((r) => r.result.rows),
    unprotected: results.flatMap((r) => r.result.unprotected),
    inbound: results.flatMap((r) => r.result.inbound),
  }),
  render(result, _a, rctx) {
    const { many, where } = arraysCovered(rctx);
    const rows = sortWorstFirst(result.rows);
    const counts = (["broken", "paused", "behind", "ok"] as const)
      .map((v) => [v, rows.filter((r) => r.verdict === v).length] as const)
      .filter(([, n]) => n > 0)
      .map(([v, n]) => `${n} ${v}`);
    const headline =
      rows.length === 0
        ? `No replica links on ${where}`
        : `Replication on ${where}: ${countOf(rows.length, "link")} (${counts.join(", ")}), worst first`;
    const blocks: Block[] = [{ type: "header", text: headline }];
    let attachments: ReturnType<typeof truncatedTable>["attachments"] = [];
    if (rows.length > 0) {
      const table = truncatedTable(
        [
          { key: "verdict", label: "Verdict" },
          ...(many ? [{ key: "array", label: "Array" }] : []),
          { key: "link", label: "Link" },
          { key: "kind", label: "Kind" },
          { key: "interval", label: "Interval" },
          { key: "lag", label: "Lag", align: "right" as const },
          { key: "ratio", label: "Lag ÷ interval", align: "right" as const },
          { key: "rp", label: "Recovery point" },
          { key: "status", label: "Status" },
        ],
        rows.map((r) => ({
          verdict: markBefore(ICON[r.verdict], r.verdict),
          array: r.array,
          link: linkName(r),
          kind: r.kind,
          interval: `${formatDuration(r.interval)} (${r.intervalFrom ? `policy ${r.intervalFrom}` : "no policy"})`,
          lag: r.lag === undefined ? "–" : formatDuration(r.lag),
          ratio: r.ratio === undefined ? "–" : `${r.ratio.toFixed(1)}×`,
          rp: r.recoveryPoint === undefined ? "–" : formatWhen(r.recoveryPoint, rctx.now, rctx.timeZone),
          status: `${r.status}${r.inFlight ? `, sending ${r.inFlight}` : ""}`,
        })),
        { limit: rctx.tableRows, filename: "replication-status.csv", title: headline },
      );
      blocks.push(table.block);
      attachments = table.attachments;
    }
    for (const r of rows) {
      if (r.verdict === "broken" || r.verdict === "paused" || r.hints.length > 0)
        blocks.push(hintBlock(r, many));
    }
    const un = result.unprotected;
    const unText =
      un.length === 0
        ? "Every file system has a replica link or a snapshot policy."
        : `Unprotected (no replica link, no snapshot policy): ${un.map((u) => (many ? `${u.array}:${u.name}` : u.name)).join(", ")}.`;
    blocks.push({ type: "section", text: rich`${unText}` });
    if (result.inbound.length > 0) {
      const targets = result.inbound.map(
        (i) => `${i.array} is the target of ${countOf(i.count, "link")} from ${i.from}`,
      );
      blocks.push({ type: "context", text: rich`${targets.join("; ")} (shown on the source).` });
    }
    const text = `${headline}. ${unText}`;
    return message(text, blocks, attachments.length ? { attachments } : {});
  },
  followUp(result): FollowUp | undefined {
    // One array only (the pipeline offers buttons outside fan-outs): resume the paused link that lags most.
    const paused = sortWorstFirst(result.rows).find((r) => r.verdict === "paused" && r.kind === "bucket");
    if (!paused) return undefined;
    return {
      label: `Resume ${paused.local} → ${paused.remote}`,
      commandId: "replica-link.bucket.resume",
      args: { bucket: paused.local, remote: paused.remote },
      validForMs: 15 * 60_000,
    };
  },
});
